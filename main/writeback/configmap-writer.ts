/**
 * The ConfigMap controller: keeps `gpu-node-status` (namespace configurable) in step with the inventory.
 *
 * Data: one key per GPU node whose value is the node's entry as compact JSON (machine-readable with
 * `jq`, and still one readable line in `kubectl get cm -o yaml`), plus `summary` with the three
 * totals. A GPU node literally named "summary" is stored under `node.summary` (node names are DNS
 * names, so no other key can collide).
 *
 * Field manager `gpu-fleet-configmap`, not `gpu-fleet`: it is a different controller writing a different
 * object, and a distinct name in managedFields and audit logs tells an operator which one did a write.
 *
 * No-op rule: compare with the keys this manager owns in the cluster (from managedFields), not the whole
 * data, so keys other tools add never cause writes, while a key of a removed node that we still own
 * does. SSA then removes that key because we stop applying it.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { asRecord } from '../../common/json-guards.ts';
import { DEFAULT_CONFIGMAP_NAMESPACE } from '../../common/settings.ts';
import type { ContextClient } from '../kube/context-client.ts';
import type { ApplyTarget } from './apply-loop.ts';
import { DEFAULT_FIT_LIMITS, fitNodes } from './fit.ts';
import { applyObject, hasManager, type KubeObject, otherManagers, readObject } from './ssa.ts';
import { type ResponseContext, TAKE_OVER_HINT, WriteError } from './write-error.ts';

export const CONFIGMAP_NAME = 'gpu-node-status';
// The default namespace is a settings default, so it lives in common/ (settings import nothing of write-back).
export { DEFAULT_CONFIGMAP_NAMESPACE };
export const CONFIGMAP_FIELD_MANAGER = 'gpu-fleet-configmap';
export const SUMMARY_KEY = 'summary';

export type ConfigMapData = Record<string, string>;

export function configMapPath(namespace: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps/${CONFIGMAP_NAME}`;
}

export function nodeKey(name: string): string {
  return name === SUMMARY_KEY ? `node.${name}` : name;
}

/**
 * The data we write: `summary` and one key per GPU node, the values within `budget` bytes (fit.ts; only
 * values count toward the ConfigMap limit). When the nodes had to be compacted or some left out,
 * `summary` says so with `nodes_compacted: true` / `nodes_omitted: N`; the totals count every GPU node.
 */
export function configMapData(
  inv: GpuInventoryStatus,
  budget: number = DEFAULT_FIT_LIMITS.configMapBytes,
): ConfigMapData {
  const totals = {
    total_gpu_nodes: inv.total_gpu_nodes,
    ready_gpu_nodes: inv.ready_gpu_nodes,
    total_gpus: inv.total_gpus,
  };
  const worstSummary = stableJson({ ...totals, nodes_compacted: true, nodes_omitted: inv.nodes.length });
  const fitted = fitNodes(inv.nodes, budget - Buffer.byteLength(worstSummary), (n) =>
    Buffer.byteLength(stableJson(n)),
  );
  const data: ConfigMapData = {
    [SUMMARY_KEY]: stableJson({
      ...totals,
      ...(fitted.compacted ? { nodes_compacted: true } : {}),
      ...(fitted.omitted > 0 ? { nodes_omitted: fitted.omitted } : {}),
    }),
  };
  for (const node of fitted.nodes) data[nodeKey(node.name)] = stableJson(node);
  return data;
}

/** JSON with sorted keys, so the same entry always gives the same string (a changed string is a write). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function configMapApplyBody(namespace: string, data: ConfigMapData): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: CONFIGMAP_NAME, namespace, labels: { 'app.kubernetes.io/managed-by': 'gpu-fleet' } },
    data,
  };
}

/** The data keys `manager`'s Apply entry owns, from managedFields (`f:data` → `f:<key>`). */
export function ownedDataKeys(object: KubeObject, manager: string): Set<string> {
  const entries = asRecord(object.metadata).managedFields;
  const keys = new Set<string>();
  if (!Array.isArray(entries)) return keys;
  for (const e of entries) {
    const entry = asRecord(e);
    if (entry.manager !== manager || entry.operation !== 'Apply') continue;
    for (const f of Object.keys(asRecord(asRecord(entry.fieldsV1)['f:data'])))
      if (f.startsWith('f:')) keys.add(f.slice(2));
  }
  return keys;
}

/** What the cluster holds of OUR data: the owned keys and their values. */
export function ownedData(object: KubeObject | null, manager: string): ConfigMapData | null {
  if (object === null) return null;
  const data = asRecord(object.data);
  const out: ConfigMapData = {};
  for (const key of ownedDataKeys(object, manager)) {
    const v = data[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}

export function dataEqual(a: ConfigMapData, b: ConfigMapData | null): boolean {
  if (b === null) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => b[k] === a[k]);
}

/** Who an object belongs to, in words, from its managedFields and its managed-by label. */
export function describeOwner(object: KubeObject, self: string): string {
  const managers = otherManagers(object, self, null).map((m) => `"${clusterText(m, 80)}"`);
  const label = asRecord(asRecord(object.metadata).labels)['app.kubernetes.io/managed-by'];
  const parts = [
    managers.length > 0 ? `field manager ${managers.join(', ')}` : null,
    typeof label === 'string' ? `label app.kubernetes.io/managed-by=${clusterText(label, 63)}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : 'no field manager recorded';
}

/** Who owns an object we did not create: its other field managers, else its managed-by label. */
export function ownersOf(object: KubeObject, self: string): string[] {
  const managers = otherManagers(object, self, null);
  if (managers.length > 0) return managers;
  const label = asRecord(asRecord(object.metadata).labels)['app.kubernetes.io/managed-by'];
  return typeof label === 'string' ? [label] : [];
}

export interface ConfigMapTargetOptions {
  /** The user allowed taking over a ConfigMap another tool created (force; still never its keys). */
  takeOver?: boolean;
}

/**
 * The ConfigMap target. Safety rules:
 * - a ConfigMap of that name that GPU Fleet did not create (no managedFields entry of ours) is another
 *   tool's: a terminal conflict naming its owner, unless the user allowed take-over;
 * - apply without force, so a field another manager owns is a 409 naming it (terminal), not overwritten;
 * - our own keys only: a key present that we do not own is never written, even with take-over, so SSA can
 *   never delete a key we did not create when we stop applying it.
 */
export function configMapTarget(
  client: ContextClient,
  namespace: string,
  opts: ConfigMapTargetOptions = {},
): ApplyTarget<ConfigMapData> {
  const ctx = (what: string): ResponseContext => ({
    what,
    missing: {
      phase: 'invalid',
      message: (m) =>
        `Cannot write ConfigMap ${namespace}/${CONFIGMAP_NAME}${m ? `: ${m}` : ''} (404); check the ConfigMap namespace setting.`,
    },
  });
  const where = `ConfigMap ${namespace}/${CONFIGMAP_NAME}`;
  /** Keys the live object has that are not ours (from the last read or apply answer). */
  let foreign = new Set<string>();
  const learn = (o: KubeObject | null) => {
    const ours = o ? ownedDataKeys(o, CONFIGMAP_FIELD_MANAGER) : new Set<string>();
    foreign = new Set(Object.keys(asRecord(o?.data)).filter((k) => !ours.has(k)));
  };
  const ownOnly = (data: ConfigMapData): ConfigMapData =>
    Object.fromEntries(Object.entries(data).filter(([k]) => !foreign.has(k)));
  return {
    async read() {
      const o = await readObject(client, configMapPath(namespace), CONFIGMAP_NAME, ctx(`reading ${where}`));
      if (o && !hasManager(o, CONFIGMAP_FIELD_MANAGER) && opts.takeOver !== true)
        throw new WriteError(
          'conflict',
          `${where} exists and was not created by GPU Fleet (${describeOwner(o, CONFIGMAP_FIELD_MANAGER)}). ${TAKE_OVER_HINT}.`,
          null,
          true,
          ownersOf(o, CONFIGMAP_FIELD_MANAGER),
        );
      learn(o);
      return ownedData(o, CONFIGMAP_FIELD_MANAGER);
    },
    async apply(data) {
      const answer = await applyObject(
        client,
        configMapPath(namespace),
        configMapApplyBody(namespace, ownOnly(data)),
        CONFIGMAP_FIELD_MANAGER,
        ctx(`writing ${where}`),
        opts.takeOver === true,
      );
      learn(answer);
    },
    equal: (a, b) => dataEqual(ownOnly(a), b),
  };
}
