/**
 * Every failure of a kube request becomes one named KubeError: a kind, the ConnectionPhase the user sees,
 * and one sentence in words (never a stack trace, never a credential). The sentence often quotes outside
 * text (a server's message, a plugin's stderr, a kubeconfig name), so the constructor passes it through
 * the gate: secrets redacted, one line, no control characters, at most SENTENCE_MAX characters.
 *
 * Malformed or truncated JSON is kind 'protocol' with phase 'unreachable': in practice it is a response cut
 * off by a restarting server, a proxy or a flaky link, so retrying with backoff is right; the sentence still
 * says the server did not answer like a Kubernetes API server, which covers a URL pointing at some other service.
 */
import { SENTENCE_MAX } from '../../common/cluster-text.ts';
import type { ConnectionPhase, Sentence } from '../../common/connection.ts';
import type { ApiErrorKind } from '../../common/errors.ts';
import { translator } from '../../common/i18n/translator.ts';
import { shownText } from '../log/redact.ts';

/** The kinds are common/errors.ts's: a failure keeps its kind when it crosses to the window. */
export type KubeErrorKind = ApiErrorKind;

const PHASES: Record<KubeErrorKind, ConnectionPhase> = {
  unreachable: 'unreachable',
  dns: 'unreachable',
  timeout: 'unreachable',
  tls: 'config-error',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  expired: 'reconnecting',
  'not-found': 'config-error',
  conflict: 'config-error',
  invalid: 'config-error',
  'too-large': 'config-error',
  throttled: 'unreachable',
  server: 'unreachable',
  protocol: 'unreachable',
  'exec-plugin': 'config-error',
  config: 'config-error',
  aborted: 'reconnecting',
};

const EN = translator('en');

/** The values of a sentence through the text gate, as the message is: redacted, one line, capped. */
function gated(s: Sentence): Sentence {
  const vars: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(s.vars)) vars[k] = typeof v === 'string' ? shownText(v) : v;
  return { key: s.key, vars };
}

export interface KubeErrorDetails {
  status?: number | null;
  code?: string | null;
  retryAfterMs?: number | null;
}

export class KubeError extends Error {
  override readonly name = 'KubeError';
  readonly phase: ConnectionPhase;
  readonly status: number | null;
  /** The system or TLS error code behind it (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT…), if any. */
  readonly code: string | null;
  readonly retryAfterMs: number | null;
  /** The sentence as a catalog key and values (the window words it), when it is one of ours. */
  readonly words: Sentence | null;

  constructor(
    readonly kind: KubeErrorKind,
    message: string | Sentence,
    details: KubeErrorDetails = {},
  ) {
    const words = typeof message === 'string' ? null : gated(message);
    super(shownText(words === null ? (message as string) : EN.t(words.key, words.vars), SENTENCE_MAX));
    this.words = words;
    this.phase = PHASES[kind];
    this.status = details.status ?? null;
    this.code = details.code ?? null;
    this.retryAfterMs = details.retryAfterMs ?? null;
  }

  /** Whether waiting and trying again can help without the user changing anything. */
  get transient(): boolean {
    return this.phase === 'unreachable' || this.phase === 'reconnecting';
  }
}

export function isKubeError(err: unknown): err is KubeError {
  return err instanceof KubeError;
}
