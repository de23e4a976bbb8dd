/**
 * The on-demand reads behind a node's detail: GET the node, LIST its events (core/v1, field selectors
 * involvedObject.kind=Node,involvedObject.name=NODE, all namespaces) and LIST the pods bound to it
 * (spec.nodeName=NODE). Each is one bounded request: a `limit`, an answer-size cap and a timeout on the
 * client's injected clock. Nothing is watched and nothing is kept. Error answers are read by api-status.ts
 * and named by error-classify.ts, as every other kube request's are.
 */
import { parseApiStatus } from './api-status.ts';
import type { ContextClient } from './context-client.ts';
import { errorFromResponse } from './error-classify.ts';
import { KubeError } from './errors.ts';

export const DETAIL_TIMEOUT_MS = 10_000;
/** A Node is ~14 KB (images, managedFields); 4 MiB allows for a pathological one and no more. */
const NODE_MAX_BYTES = 4 << 20;
/** kubectl describe reads up to 500 events of a node; so do we. */
export const EVENTS_LIMIT = 500;
const EVENTS_MAX_BYTES = 8 << 20;
/** A node runs at most a few hundred pods (kubelet's default max is 110). */
export const PODS_LIMIT = 500;
const PODS_MAX_BYTES = 16 << 20;

async function getJson(
  client: ContextClient,
  path: string,
  what: string,
  maxBodyBytes: number,
  timeoutMs: number,
): Promise<{ status: number; json: unknown }> {
  const res = await client.request('GET', path, {
    headers: { Accept: 'application/json' },
    timeoutMs,
    maxBodyBytes,
  });
  if (res.status < 200 || res.status > 299) {
    // A 404 Status about this very node means "no such node"; a text 404 means no such API.
    const s = parseApiStatus(res.body);
    if (res.status === 404 && s.kind === 'Status' && s.reason === 'NotFound')
      return { status: 404, json: null };
    throw errorFromResponse(res.status, res.body, res.headers, what);
  }
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new KubeError(
      'protocol',
      `${new URL(client.server).host} did not answer like a Kubernetes API server while ${what} (bad JSON).`,
    );
  }
  return { status: res.status, json };
}

/** The raw Node, or null when the cluster has no node of that name. */
export async function getNode(
  client: ContextClient,
  name: string,
  timeoutMs = DETAIL_TIMEOUT_MS,
): Promise<unknown | null> {
  const r = await getJson(
    client,
    `/api/v1/nodes/${encodeURIComponent(name)}`,
    `reading node ${name}`,
    NODE_MAX_BYTES,
    timeoutMs,
  );
  return r.status === 404 ? null : r.json;
}

export async function listNodeEvents(
  client: ContextClient,
  name: string,
  timeoutMs = DETAIL_TIMEOUT_MS,
): Promise<unknown> {
  const q = new URLSearchParams({
    fieldSelector: `involvedObject.kind=Node,involvedObject.name=${name}`,
    limit: String(EVENTS_LIMIT),
  });
  const r = await getJson(
    client,
    `/api/v1/events?${q}`,
    `listing the events of node ${name}`,
    EVENTS_MAX_BYTES,
    timeoutMs,
  );
  if (r.status === 404)
    throw new KubeError('not-found', 'The server has no events API (404).', { status: 404 });
  return r.json;
}

export async function listNodePods(
  client: ContextClient,
  name: string,
  timeoutMs = DETAIL_TIMEOUT_MS,
): Promise<unknown> {
  const q = new URLSearchParams({ fieldSelector: `spec.nodeName=${name}`, limit: String(PODS_LIMIT) });
  const r = await getJson(
    client,
    `/api/v1/pods?${q}`,
    `listing the pods on node ${name}`,
    PODS_MAX_BYTES,
    timeoutMs,
  );
  if (r.status === 404)
    throw new KubeError('not-found', 'The server has no pods API (404).', { status: 404 });
  return r.json;
}
