/**
 * Install on demand: make `gpuinventories.<group>` exist, Established, with a `cluster` object.
 *
 * 1. GET the CRD. If it exists with our shape (kind GpuInventory, cluster scope, v1 served with a status
 *    subresource) it is used as it is, whoever installed it: that is how users of an earlier operator's
 *    CRD point the app at their group. Another shape under that name is refused with what differs.
 * 2. Otherwise check with SelfSubjectAccessReview that we may create CRDs (before trying anything), then
 *    POST buildCrd(group) and poll until the Established condition is True.
 * 3. Create the `cluster` object if missing. Right after a CRD is created its resource URL answers a
 *    text 404 and then 429 "storage is (re)initializing" for a few ms (06-crd step 3): both are retried
 *    until the timeout.
 */

import { asRecord } from '../../common/json-guards.ts';
import { parseApiStatus } from '../kube/api-status.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient, KubeResponse } from '../kube/context-client.ts';
import { ACCESS, requireAccess } from './access.ts';
import { buildCrd, CRD_KIND, CRD_PLURAL, CRD_VERSION, crdName, INVENTORY_OBJECT_NAME } from './crd.ts';
import { crdMismatch, crdSchemaFit, crdShapeProblems, isEstablished } from './crd-shape.ts';
import { inventoryPath } from './status-writer.ts';
import { toWriteError, WriteError, writeErrorFromResponse } from './write-error.ts';

export interface InstallOptions {
  group: string;
  clock: Clock;
  /** How long to wait for Established and for the new resource to be served. */
  timeoutMs?: number;
  pollMs?: number;
}

export interface InstallResult {
  group: string;
  crd: 'created' | 'existing';
  /** An existing, older GpuInventory CRD of ours (label managed-by gpu-fleet) got the current schema. */
  updated: boolean;
  object: 'created' | 'existing';
  /** Fields we write that the existing CRD's schema lacks (the API server drops them); empty if none. */
  dropped: string[];
}

const CRD_BASE = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export async function installWriteback(client: ContextClient, opts: InstallOptions): Promise<InstallResult> {
  const { group } = opts;
  const name = crdName(group);
  const deadline = opts.clock.now() + (opts.timeoutMs ?? 30_000);
  // Awaited waits: clock.sleep keeps the process alive (a background setTimeout would let `crd --install` exit 13).
  const sleep = (ms: number) => opts.clock.sleep(ms);
  const poll = opts.pollMs ?? 100;
  const call = async (method: string, path: string, what: string, body?: unknown): Promise<KubeResponse> => {
    try {
      return await client.request(method, path, {
        headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (e) {
      throw toWriteError(e, what);
    }
  };
  const fail = (res: KubeResponse, what: string) =>
    writeErrorFromResponse(res.status, res.body, {
      what,
      missing: { phase: 'error', message: (m) => `Not found while ${what}${m ? `: ${m}` : ''} (404).` },
    });

  let crd: InstallResult['crd'] = 'existing';
  let updated = false;
  let dropped: string[] = [];
  const got = await call('GET', `${CRD_BASE}/${name}`, `reading CRD ${name}`);
  if (got.status === 200) {
    const existing = parse(got.body);
    const problems = crdShapeProblems(existing, group);
    if (problems.length > 0) throw crdMismatch(name, problems);
    dropped = crdSchemaFit(existing).dropped;
    const ours = asRecord(asRecord(existing.metadata).labels)['app.kubernetes.io/managed-by'] === 'gpu-fleet';
    if (dropped.length > 0 && ours) {
      // Our own older CRD: give it the current schema (fields are only ever added, so stored objects stay valid).
      const rv = asRecord(existing.metadata).resourceVersion;
      const next = buildCrd(group);
      const body = { ...next, metadata: { ...next.metadata, resourceVersion: rv } };
      const put = await call('PUT', `${CRD_BASE}/${name}`, `updating CRD ${name}`, body);
      if (put.status !== 200) throw fail(put, `updating CRD ${name}`);
      updated = true;
      dropped = [];
    }
  } else if (got.status === 404 || got.status === 403) {
    // A 403 on the GET may still allow create; the access review says for sure.
    await requireAccess(client, ACCESS.installCrd());
    const created = await call('POST', CRD_BASE, `creating CRD ${name}`, buildCrd(group));
    if (created.status === 201 || created.status === 200) crd = 'created';
    else if (created.status !== 409) throw fail(created, `creating CRD ${name}`);
  } else {
    throw fail(got, `reading CRD ${name}`);
  }

  for (;;) {
    const res = await call('GET', `${CRD_BASE}/${name}`, `waiting for CRD ${name}`);
    if (res.status === 200 && isEstablished(parse(res.body))) break;
    if (res.status !== 200 && res.status !== 404 && res.status !== 403)
      throw fail(res, `waiting for CRD ${name}`);
    if (opts.clock.now() >= deadline)
      throw new WriteError('error', `The CRD ${name} did not become Established in time.`);
    await sleep(poll);
  }

  const object = await ensureObject(call, fail, group, deadline, opts.clock, sleep, poll);
  return { group, crd, object, updated, dropped };
}

type Call = (method: string, path: string, what: string, body?: unknown) => Promise<KubeResponse>;

async function ensureObject(
  call: Call,
  fail: (res: KubeResponse, what: string) => WriteError,
  group: string,
  deadline: number,
  clock: Clock,
  sleep: (ms: number) => Promise<void>,
  poll: number,
): Promise<'created' | 'existing'> {
  const what = `creating ${CRD_KIND} "${INVENTORY_OBJECT_NAME}"`;
  const body = {
    apiVersion: `${group}/${CRD_VERSION}`,
    kind: CRD_KIND,
    metadata: { name: INVENTORY_OBJECT_NAME },
    spec: {},
  };
  for (;;) {
    const got = await call('GET', inventoryPath(group), what);
    if (got.status === 200) return 'existing';
    const notFoundJson = got.status === 404 && parseApiStatus(got.body).reason === 'NotFound';
    if (notFoundJson) {
      const res = await call('POST', `/apis/${group}/${CRD_VERSION}/${CRD_PLURAL}`, what, body);
      if (res.status === 201 || res.status === 200) return 'created';
      if (res.status === 409) return 'existing';
      if (res.status !== 404 && res.status !== 429) throw fail(res, what);
    } else if (got.status !== 404 && got.status !== 429) {
      throw fail(got, what);
    }
    // The window right after the CRD became Established: text 404, then 429.
    if (clock.now() >= deadline)
      throw new WriteError('error', `The new ${CRD_PLURAL}.${group} resource was not served in time.`);
    await sleep(poll);
  }
}

function safeParse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

function parse(body: string): Record<string, unknown> {
  return asRecord(safeParse(body));
}
