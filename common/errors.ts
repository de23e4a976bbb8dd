/**
 * The kinds of failure every layer names, and the `{kind, message}` shape a failure keeps when it
 * crosses a process (Electron IPC, the loopback web bridge). The kube layer's KubeError and the
 * write-back WriteError carry one of these kinds; the renderer reads a rejected invoke back into
 * this shape with `invokeError` (renderer/lib/invoke-error.ts), never by stripping a prefix.
 */
import { isWords, type Words } from './words.ts';

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

/**
 * A failure as it crosses a process: its kind and its one sentence (English, for logs and the CLI),
 * and where the host has them, the same as facts for the window to word in its language.
 */
export interface ErrorInfo {
  kind: ErrorKind;
  message: string;
  /** The refusal as facts (common/words.ts: forwarding, kubectl's context, settings), worded by wordsText. */
  words?: Words;
}

/**
 * `{kind, message, words?}` when `v` has that shape (a KubeError, a WriteError, a reply's error), else
 * null. Words that are not well-formed are left out (the sentence stays).
 */
export function asErrorInfo(v: unknown): ErrorInfo | null {
  if (typeof v !== 'object' || v === null) return null;
  const kind: unknown = 'kind' in v ? v.kind : undefined;
  const message: unknown = 'message' in v ? v.message : undefined;
  if (!isErrorKind(kind) || typeof message !== 'string') return null;
  const words: unknown = 'words' in v ? v.words : undefined;
  return isWords(words) ? { kind, message, words } : { kind, message };
}

/** A refusal with its facts: its message is their English, its kind 'bad-request' unless given. */
export class WordedError extends Error {
  constructor(
    readonly words: Words,
    message: string,
    readonly kind: ErrorKind = 'bad-request',
  ) {
    super(message);
  }
}

/** Any thrown value as `{kind, message}`: its own kind when it has one, else `fallback`. */
export function toErrorInfo(e: unknown, fallback: ErrorKind = 'failed'): ErrorInfo {
  const info = asErrorInfo(e);
  if (info) return info;
  return { kind: fallback, message: e instanceof Error ? e.message : String(e) };
}
