/**
 * The kinds of failure every layer names, and the `{kind, message}` shape a failure keeps when it
 * crosses a process (Electron IPC, the loopback web bridge). The kube layer's KubeError and the
 * write-back WriteError carry one of these kinds; the renderer reads a rejected invoke back into
 * this shape with `invokeError` (renderer/lib/invoke-error.ts), never by stripping a prefix.
 */

/** Failures of a Kubernetes API request (main/kube/errors.ts maps each to a ConnectionPhase). */
export type ApiErrorKind =
  | 'unreachable'
  | 'dns'
  | 'timeout'
  | 'tls'
  | 'unauthorized'
  | 'forbidden'
  | 'expired'
  | 'not-found'
  | 'conflict'
  | 'invalid'
  | 'too-large'
  | 'throttled'
  | 'server'
  | 'protocol'
  | 'exec-plugin'
  | 'config'
  | 'aborted';

/** Failures of the contract itself, named by the host that serves it. */
export type ContractErrorKind =
  /** The sender is not our window (Electron) or the channel does not exist. */
  | 'refused'
  /** The arguments did not match the channel's schema, or the request body could not be read. */
  | 'bad-request'
  /** The host did not answer (the web bridge could not be reached). */
  | 'disconnected'
  /** A handler refused or failed with a sentence of its own. */
  | 'failed';

export type ErrorKind = ApiErrorKind | ContractErrorKind;

const KINDS: ReadonlySet<string> = new Set<ErrorKind>([
  'unreachable',
  'dns',
  'timeout',
  'tls',
  'unauthorized',
  'forbidden',
  'expired',
  'not-found',
  'conflict',
  'invalid',
  'too-large',
  'throttled',
  'server',
  'protocol',
  'exec-plugin',
  'config',
  'aborted',
  'refused',
  'bad-request',
  'disconnected',
  'failed',
]);

export function isErrorKind(v: unknown): v is ErrorKind {
  return typeof v === 'string' && KINDS.has(v);
}

/** A failure as it crosses a process: its kind and its one sentence. */
export interface ErrorInfo {
  kind: ErrorKind;
  message: string;
}

/** `{kind, message}` when `v` has that shape (a KubeError, a WriteError, a reply's error), else null. */
export function asErrorInfo(v: unknown): ErrorInfo | null {
  if (typeof v !== 'object' || v === null) return null;
  const kind: unknown = 'kind' in v ? v.kind : undefined;
  const message: unknown = 'message' in v ? v.message : undefined;
  if (!isErrorKind(kind) || typeof message !== 'string') return null;
  return { kind, message };
}

/** Any thrown value as `{kind, message}`: its own kind when it has one, else `fallback`. */
export function toErrorInfo(e: unknown, fallback: ErrorKind = 'failed'): ErrorInfo {
  const info = asErrorInfo(e);
  if (info) return info;
  return { kind: fallback, message: e instanceof Error ? e.message : String(e) };
}
