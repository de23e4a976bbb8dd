/**
 * The two requests telemetry makes, with the user's own credentials through the API server: LIST the
 * exporter pods (label app=nvidia-dcgm-exporter; the GPU Operator's `gpu-operator` namespace first, all
 * namespaces when it has none) and GET one exporter's metrics through pods/proxy. Each is bounded: a
 * timeout on the client's clock and an answer-size cap. A failure throws a `TelemetryError`: one
 * sentence for the user and whether a retry soon could help.
 */
import { parseApiStatus } from '../kube/api-status.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { KubeError } from '../kube/errors.ts';
import { shownText } from '../log/redact.ts';

export const EXPORTER_SELECTOR = 'app=nvidia-dcgm-exporter';
export const EXPORTER_PORT = 9400;
export const OPERATOR_NAMESPACE = 'gpu-operator';
export const SCRAPE_TIMEOUT_MS = 5_000;
/** dcgm-exporter prints ~4 KB per GPU with the default counters; 8 GPUs with every counter stay far below. */
export const SCRAPE_MAX_BYTES = 2 << 20;
export const DISCOVERY_LIMIT = 5_000;
const DISCOVERY_MAX_BYTES = 64 << 20;

export interface ExporterRef {
  namespace: string;
  pod: string;
}

export class TelemetryError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export const NO_EXPORTER = 'not available — no DCGM exporter';
export const FORBIDDEN_PROXY = 'forbidden: pods/proxy';
export const POD_GONE = 'the DCGM exporter pod is gone';
/** A 200 answer without one DCGM_FI_* sample (dcgm-read.ts hasDcgmSamples): transient, retried with backoff. */
export const NO_DCGM_METRICS = 'the exporter answered without DCGM metrics';
export const FORBIDDEN_PODS = 'forbidden: pods (cannot find the DCGM exporter)';

function failureOf(status: number, body: string, what: 'list' | 'scrape'): TelemetryError {
  const s = parseApiStatus(body);
  if (status === 403) return new TelemetryError(what === 'list' ? FORBIDDEN_PODS : FORBIDDEN_PROXY, false);
  if (status === 401) return new TelemetryError('the cluster rejected the credentials (401)', false);
  if (status === 400 && s.message === 'address not allowed')
    return new TelemetryError('the exporter pod has no reachable pod IP (address not allowed)', false);
  if (status === 404 && s.reason === 'NotFound') return new TelemetryError(POD_GONE, true);
  const said = s.message ? `: ${shownText(s.message).slice(0, 160)}` : '';
  return new TelemetryError(
    `the exporter did not answer (${status})${said}`,
    status >= 500 || status === 429,
  );
}

function fromKube(err: unknown): TelemetryError {
  if (err instanceof TelemetryError) return err;
  if (err instanceof KubeError) return new TelemetryError(shownText(err.message), err.kind !== 'too-large');
  return new TelemetryError('the exporter could not be read', true);
}

export async function listExporterPods(client: ContextClient, namespace: string | null): Promise<unknown> {
  const q = new URLSearchParams({ labelSelector: EXPORTER_SELECTOR, limit: String(DISCOVERY_LIMIT) });
  const path =
    namespace === null
      ? `/api/v1/pods?${q}`
      : `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods?${q}`;
  let res: Awaited<ReturnType<ContextClient['request']>>;
  try {
    res = await client.request('GET', path, {
      headers: { Accept: 'application/json' },
      timeoutMs: SCRAPE_TIMEOUT_MS * 2,
      maxBodyBytes: DISCOVERY_MAX_BYTES,
    });
  } catch (err) {
    throw fromKube(err);
  }
  if (res.status < 200 || res.status > 299) throw failureOf(res.status, res.body, 'list');
  try {
    return JSON.parse(res.body) as unknown;
  } catch {
    throw new TelemetryError('the API server sent a pod list that is not JSON', true);
  }
}

export function metricsPath(ref: ExporterRef): string {
  return `/api/v1/namespaces/${encodeURIComponent(ref.namespace)}/pods/${encodeURIComponent(ref.pod)}:${EXPORTER_PORT}/proxy/metrics`;
}

/** The exporter's metrics text and its size in bytes. */
export async function scrapeExporter(client: ContextClient, ref: ExporterRef): Promise<string> {
  let res: Awaited<ReturnType<ContextClient['request']>>;
  try {
    res = await client.request('GET', metricsPath(ref), {
      headers: { Accept: 'text/plain;version=0.0.4' },
      timeoutMs: SCRAPE_TIMEOUT_MS,
      maxBodyBytes: SCRAPE_MAX_BYTES,
    });
  } catch (err) {
    throw fromKube(err);
  }
  if (res.status < 200 || res.status > 299) throw failureOf(res.status, res.body, 'scrape');
  return res.body;
}
