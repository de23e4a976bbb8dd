/**
 * Turns socket/TLS errors and non-2xx API answers into KubeErrors (see errors.ts for the kinds; the
 * answer is read by api-status.ts, the one Status parser, which write-back shares). The
 * server's own words (a Status message, often written by an admission webhook) are outside text: they
 * are redacted and pass the text gate before they become part of a sentence, and a redirect names its
 * target without userinfo or query. A failure to reach a `proxy-url` names the proxy, not the server.
 */
import { displayServerUrl } from '../../common/server-url.ts';
import { shownText } from '../log/redact.ts';
import { parseApiStatus, retryAfterMs } from './api-status.ts';
import { KubeError } from './errors.ts';

const TLS_TRUST_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

function codeOf(err: unknown): string | null {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return null;
}

function hostOf(server: string): string {
  try {
    const host = new URL(server).host;
    if (host !== '') return host;
  } catch {
    // Not a URL: shown without anything that could be a credential.
  }
  return displayServerUrl(server);
}

/** Errors that happened on a request sent through a proxy, with that proxy's address. */
const proxied = new WeakMap<object, string>();

/** Records that `err` came from a request sent through `proxyUrl` (context-client.ts calls it). */
export function markProxied(err: unknown, proxyUrl: string): void {
  if (typeof err === 'object' && err !== null) proxied.set(err, proxyUrl);
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

/**
 * Through a proxy every TCP connection goes to the proxy (the API server is reached by the proxy's
 * tunnel), so a failure to connect or resolve is the proxy's, and so is a refused CONNECT.
 */
function proxyFailure(err: unknown, server: string): KubeError | null {
  if (typeof err !== 'object' || err === null) return null;
  const proxy = proxied.get(err);
  if (proxy === undefined) return null;
  const shown = displayServerUrl(proxy);
  const code = codeOf(err);
  const syscall = 'syscall' in err && typeof err.syscall === 'string' ? err.syscall : null;
  const message = err instanceof Error ? err.message : '';
  const refused = /^Bad response: (\d{3})/.exec(message);
  if (refused) {
    return new KubeError(
      'unreachable',
      {
        key: 'kubeError.proxyRefused',
        vars: { proxy: shown, host: hostOf(server), status: refused[1] ?? '' },
      },
      { code, status: Number(refused[1]) },
    );
  }
  if (message === 'Proxy timeout') {
    return new KubeError('timeout', { key: 'kubeError.proxyTimeout', vars: { proxy: shown } }, { code });
  }
  const connectPhase =
    (code !== null && CONNECT_CODES.has(code) && (syscall === 'connect' || syscall === 'getaddrinfo')) ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    /socks/i.test(message);
  if (!connectPhase) return null;
  return new KubeError(
    code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'dns' : 'unreachable',
    { key: 'kubeError.proxyUnreachable', vars: { proxy: shown, why: code ?? shownText(message, 120) } },
    { code },
  );
}

/** A failure below HTTP: the socket, DNS, TLS, or our own timeout. */
export function classifyNetworkError(err: unknown, server: string): KubeError {
  const viaProxy = proxyFailure(err, server);
  if (viaProxy) return viaProxy;
  const host = hostOf(server);
  const code = codeOf(err);
  const d = { code };
  if (code && TLS_TRUST_CODES.has(code)) {
    return new KubeError('tls', { key: 'kubeError.untrusted', vars: { host, code } }, d);
  }
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return new KubeError('tls', { key: 'kubeError.altName', vars: { host } }, d);
    case 'CERT_HAS_EXPIRED':
      return new KubeError('tls', { key: 'kubeError.certExpired', vars: { host } }, d);
    case 'CERT_NOT_YET_VALID':
      return new KubeError('tls', { key: 'kubeError.notYetValid', vars: { host } }, d);
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return new KubeError('tls', { key: 'kubeError.notTls', vars: { host } }, d);
    case 'ECONNREFUSED':
      return new KubeError('unreachable', { key: 'kubeError.refused', vars: { host } }, d);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return new KubeError('unreachable', { key: 'kubeError.reset', vars: { host } }, d);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new KubeError('dns', { key: 'kubeError.dns', vars: { host } }, d);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return new KubeError('unreachable', { key: 'kubeError.noRoute', vars: { host } }, d);
    case 'ETIMEDOUT':
      return new KubeError('timeout', { key: 'kubeError.timeout', vars: { host } }, d);
    case 'ABORT_ERR':
      return new KubeError('aborted', { key: 'kubeError.cancelled', vars: {} }, d);
  }
  if (code && /^ERR_(SSL|OSSL)_.*(ALERT|CERTIFICATE_REQUIRED)/.test(code)) {
    return new KubeError('tls', { key: 'kubeError.handshake', vars: { host, code } }, d);
  }
  if (code && /^ERR_(SSL|OSSL)_/.test(code)) {
    return new KubeError('tls', { key: 'kubeError.tlsSettings', vars: { host, code } }, d);
  }
  const text = err instanceof Error ? err.message : String(err);
  return new KubeError('unreachable', { key: 'kubeError.failed', vars: { host, why: shownText(text) } }, d);
}

/** The longest reason shown (Kubernetes reasons are one CamelCase word). */
const REASON_MAX = 64;

/** A Status body's message and reason, redacted and through the text gate; never the raw body. */
function shownStatus(body: string): { message: string | null; reason: string | null } {
  const s = parseApiStatus(body);
  const shown = (m: string | null, max?: number) => {
    const t = m === null ? '' : shownText(m, max);
    return t === '' ? null : t;
  };
  return { message: shown(s.message), reason: shown(s.reason, REASON_MAX) };
}

/**
 * A complete HTTP answer whose status is not 2xx; `what` names the request in words ("listing nodes").
 * `server` (the kubeconfig's address) resolves a relative redirect target.
 */
export function errorFromResponse(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
  what: string,
  server?: string,
): KubeError {
  const d = { status, retryAfterMs: retryAfterMs(headers['retry-after']) };
  if (status >= 300 && status <= 399) return redirected(status, headers.location, what, server, d);
  const { message, reason } = shownStatus(body);
  const said = message ? `: ${message}` : '.';
  if (status === 401) {
    return new KubeError('unauthorized', { key: 'kubeError.unauthorized', vars: {} }, d);
  }
  if (status === 403) return new KubeError('forbidden', `Not allowed ${what}${said}`, d);
  if (status === 410) return new KubeError('expired', `The resource version expired while ${what} (410).`, d);
  if (status === 404)
    return new KubeError(
      'not-found',
      `The server has no such API while ${what} (404); is it a Kubernetes API server?`,
      d,
    );
  if (status === 429)
    return new KubeError(
      'throttled',
      message ? { key: 'kubeError.busySaid', vars: { message } } : { key: 'kubeError.busy', vars: {} },
      d,
    );
  if (status >= 500)
    return new KubeError(
      'server',
      `The API server failed while ${what} (${status}${reason ? ` ${reason}` : ''})${said}`,
      d,
    );
  return new KubeError('config', `The API server refused ${what} (${status})${said}`, d);
}

/**
 * A redirect is not followed: it would send the credentials to another address. The sentence names the
 * target (without userinfo or query) so the user can fix the kubeconfig's server.
 */
function redirected(
  status: number,
  location: string | string[] | undefined,
  what: string,
  server: string | undefined,
  d: { status: number; retryAfterMs: number | null },
): KubeError {
  const target = Array.isArray(location) ? location[0] : location;
  if (target === undefined || target.trim() === '') {
    return new KubeError(
      'config',
      `The API server answered ${what} with a redirect (${status}) to nowhere.`,
      d,
    );
  }
  return new KubeError(
    'config',
    `The API server redirects ${what} to ${displayServerUrl(target.trim(), server)} (${status}); ` +
      "redirects are not followed, so set the kubeconfig's server to the right address.",
    d,
  );
}

/** Any thrown value as a KubeError (KubeErrors pass through). */
export function toKubeError(err: unknown, server: string): KubeError {
  if (err instanceof KubeError) return err;
  return classifyNetworkError(err, server);
}
