/**
 * The GpuInventory status writer: server-side apply of the inventory on
 * `/apis/<group>/v1/gpuinventories/cluster/status` (field manager `gpu-fleet`, force), only when it
 * differs from the status the cluster holds, ignoring `observed_at` and node order (inventoriesEqual).
 *
 * Apply on /status never creates the object (404), so a missing `cluster` object is created first by an
 * apply on the main resource (create-or-update; it sets only `spec: {}`).
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { asRecord } from '../../common/json-guards.ts';
import { inventoriesEqual } from '../inventory/aggregate.ts';
import type { ContextClient } from '../kube/context-client.ts';
import type { ApplyTarget } from './apply-loop.ts';
import { CRD_KIND, CRD_PLURAL, CRD_VERSION, crdName, INVENTORY_OBJECT_NAME } from './crd.ts';
import { crdMismatch, crdShapeProblems } from './crd-shape.ts';
import { DEFAULT_FIT_LIMITS, fitNodes } from './fit.ts';
import { applyObject, ObjectMissing, otherManagers, readObject } from './ssa.ts';
import {
  type ResponseContext,
  TAKE_OVER_HINT,
  toWriteError,
  WriteError,
  writeErrorFromResponse,
} from './write-error.ts';

export const STATUS_FIELD_MANAGER = 'gpu-fleet';

export function inventoryPath(group: string, subresource = ''): string {
  return `/apis/${group}/${CRD_VERSION}/${CRD_PLURAL}/${INVENTORY_OBJECT_NAME}${subresource ? `/${subresource}` : ''}`;
}

/**
 * The apply body: apiVersion and kind are required, or the server answers 400 "invalid object type".
 * Null fields are left out: in an apply, null means "not managed" and the server drops it anyway; readers
 * treat an absent field as null.
 */
export function statusApplyBody(group: string, status: GpuInventoryStatus): Record<string, unknown> {
  return {
    apiVersion: `${group}/${CRD_VERSION}`,
    kind: CRD_KIND,
    metadata: { name: INVENTORY_OBJECT_NAME },
    status: withoutNulls(status),
  };
}

export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

/**
 * The status to write: the inventory with its node list made to fit `budget` bytes of status JSON
 * (fit.ts), with `nodes_compacted` / `nodes_omitted` when it had to; above `listReadyUpTo` GPU nodes
 * only NotReady ones are listed. The totals are never touched.
 */
export function fitStatus(
  status: GpuInventoryStatus,
  budget: number = DEFAULT_FIT_LIMITS.statusBytes,
  listReadyUpTo?: number,
): GpuInventoryStatus {
  const { nodes, nodes_compacted: _c, nodes_omitted: _o, ...rest } = status;
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(withoutNulls(v)));
  // Room for the markers too: the largest they can be.
  const base = bytes({ ...rest, nodes: [], nodes_compacted: true, nodes_omitted: nodes.length });
  const fitted = fitNodes(nodes, budget - base, (n) => bytes(n) + 1, listReadyUpTo);
  return {
    ...rest,
    nodes: fitted.nodes,
    ...(fitted.compacted ? { nodes_compacted: true } : {}),
    ...(fitted.omitted > 0 ? { nodes_omitted: fitted.omitted } : {}),
  };
}

/** Equal for writing: inventoriesEqual (observed_at and node order ignored) and the same markers. */
export function statusesEqual(a: GpuInventoryStatus, b: GpuInventoryStatus | null): boolean {
  if (b === null || !inventoriesEqual(a, b)) return false;
  return (
    (a.nodes_compacted ?? false) === (b.nodes_compacted ?? false) &&
    (a.nodes_omitted ?? 0) === (b.nodes_omitted ?? 0)
  );
}

export function crdMissingMessage(group: string): string {
  return `The ${CRD_KIND} CRD (${crdName(group)}) is not installed in this cluster; install it with 'gpu-fleet crd --install --group ${group}' or 'gpu-fleet crd --group ${group} | kubectl apply -f -'.`;
}

/** The status as read from the cluster, if it has the shape of an inventory (untrusted input). */
export function statusOf(object: Record<string, unknown> | null): GpuInventoryStatus | null {
  if (object === null) return null;
  const s = asRecord(object.status);
  const ints = ['total_gpu_nodes', 'ready_gpu_nodes', 'total_gpus'].every((k) => Number.isInteger(s[k]));
  const nodes = Array.isArray(s.nodes) && s.nodes.every((n) => typeof asRecord(n).name === 'string');
  // Anything else (no status yet, another tool's shape) is "not what we want", so it gets written.
  return ints && nodes ? (s as unknown as GpuInventoryStatus) : null;
}

export interface StatusTargetOptions {
  /** The user allowed taking over status fields another field manager owns (force). */
  takeOver?: boolean;
  /**
   * The in-cluster controller's Lease (`namespace/name`): written into the status as `writer`; a status
   * that names another Lease belongs to another install, and is not written (a conflict, said why).
   */
  writer?: string;
}

/** The sentence of a status another install's controller writes. */
export function otherWriterMessage(theirs: string, ours: string): string {
  return `The ${CRD_KIND} "${INVENTORY_OBJECT_NAME}" status is written by the controller of Lease ${clusterText(theirs, 317)} (another install); this controller (Lease ${ours}) does not write over it. Remove one of the two installs.`;
}

/**
 * Before every (re)start of the writer: the CRD must exist (a 404 here is "not installed", told apart
 * from a deleted `cluster` object) and have a shape we can write (crd-shape.ts). Without permission to
 * read CRDs (403) the check is skipped: the writes themselves will say what is wrong.
 */
export async function checkCrd(client: ContextClient, group: string): Promise<void> {
  const name = crdName(group);
  const what = `reading CRD ${name}`;
  let res: Awaited<ReturnType<ContextClient['request']>>;
  try {
    res = await client.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`, {
      headers: { Accept: 'application/json' },
    });
  } catch (e) {
    throw toWriteError(e, what);
  }
  if (res.status === 403) return;
  if (res.status === 404) throw new WriteError('crd-missing', crdMissingMessage(group), 404);
  if (res.status !== 200)
    throw writeErrorFromResponse(res.status, res.body, {
      what,
      missing: { phase: 'crd-missing', message: () => crdMissingMessage(group) },
    });
  let crd: Record<string, unknown> = {};
  try {
    crd = asRecord(JSON.parse(res.body));
  } catch {
    throw new WriteError('error', `The API server did not answer with an object while ${what}.`);
  }
  const problems = crdShapeProblems(crd, group);
  if (problems.length > 0) throw crdMismatch(name, problems);
}

export function statusTarget(
  client: ContextClient,
  group: string,
  opts: StatusTargetOptions = {},
): ApplyTarget<GpuInventoryStatus> {
  const ctx = (what: string): ResponseContext => ({
    what,
    missing: { phase: 'crd-missing', message: () => crdMissingMessage(group) },
  });
  let objectExists = false;
  const create = async () => {
    const body = {
      apiVersion: `${group}/${CRD_VERSION}`,
      kind: CRD_KIND,
      metadata: { name: INVENTORY_OBJECT_NAME },
      spec: {},
    };
    await applyObject(
      client,
      inventoryPath(group),
      body,
      STATUS_FIELD_MANAGER,
      ctx(`creating ${CRD_KIND} "${INVENTORY_OBJECT_NAME}"`),
    );
    objectExists = true;
  };
  const writeStatus = (status: GpuInventoryStatus) =>
    applyObject(
      client,
      inventoryPath(group, 'status'),
      statusApplyBody(group, opts.writer === undefined ? status : { ...status, writer: opts.writer }),
      STATUS_FIELD_MANAGER,
      ctx(`writing the ${CRD_KIND} status`),
      opts.takeOver === true,
    );
  return {
    async read() {
      await checkCrd(client, group);
      const o = await readObject(
        client,
        inventoryPath(group),
        INVENTORY_OBJECT_NAME,
        ctx(`reading ${CRD_KIND} "${INVENTORY_OBJECT_NAME}"`),
      );
      objectExists = o !== null;
      const others = o ? otherManagers(o, STATUS_FIELD_MANAGER, 'f:status') : [];
      if (others.length > 0 && opts.takeOver !== true)
        throw new WriteError(
          'conflict',
          `The ${CRD_KIND} "${INVENTORY_OBJECT_NAME}" status is owned by field manager ${others
            .map((m) => `"${clusterText(m, 80)}"`)
            .join(', ')}. ${TAKE_OVER_HINT}.`,
          null,
          true,
          others,
        );
      const current = statusOf(o);
      const theirs = current?.writer;
      if (opts.writer !== undefined && typeof theirs === 'string' && theirs !== opts.writer)
        throw new WriteError('conflict', otherWriterMessage(theirs, opts.writer), null, true);
      return current;
    },
    async apply(status) {
      if (!objectExists) await create();
      try {
        await writeStatus(status);
      } catch (e) {
        if (!(e instanceof ObjectMissing)) throw e;
        // The `cluster` object was deleted (the CRD is still served): create it again, once.
        objectExists = false;
        await create();
        await writeStatus(status);
      }
    },
    // A status without our writer mark is written once more, to carry it.
    equal: (a, b) => statusesEqual(a, b) && (opts.writer === undefined || b?.writer === opts.writer),
  };
}
