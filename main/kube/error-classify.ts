/**
 * Turns socket/TLS errors and non-2xx API answers into KubeErrors (see errors.ts for the kinds; the
 * answer is read by api-status.ts, the one Status parser, which write-back shares). The
 * server's own words (a Status message, often written by an admission webhook) are outside text: they
 * are redacted and pass the text gate before they become part of a sentence, and a redirect names its
 * target without userinfo or query. A failure to reach a `proxy-url` names the proxy, not the server.
 */
import { displayServerUrl } from '../../common/server-url.ts';
import { shownText } from '../log/redact.ts';
import { parseApiStatus, retryAfterMs, UNAUTHORIZED_SENTENCE } from './api-status.ts';
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
      `The proxy ${shown} refused the tunnel to ${hostOf(server)} (HTTP ${refused[1]}); check proxy-url in the kubeconfig.`,
      { code, status: Number(refused[1]) },
    );
  }
  if (message === 'Proxy timeout') {
    return new KubeError('timeout', `cannot reach proxy ${shown}: it did not answer in time.`, { code });
  }
  const connectPhase =
    (code !== null && CONNECT_CODES.has(code) && (syscall === 'connect' || syscall === 'getaddrinfo')) ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    /socks/i.test(message);
  if (!connectPhase) return null;
  return new KubeError(
    code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'dns' : 'unreachable',
    `cannot reach proxy ${shown}: ${code ?? shownText(message, 120)}; check proxy-url in the kubeconfig.`,
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
    return new KubeError(
      'tls',
      `The certificate of ${host} is not signed by the kubeconfig's certificate authority (${code}).`,
      d,
    );
  }
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return new KubeError(
        'tls',
        `The certificate of ${host} is not valid for that host name; check the server address or tls-server-name.`,
        d,
      );
    case 'CERT_HAS_EXPIRED':
      return new KubeError('tls', `The certificate of ${host} has expired.`, d);
    case 'CERT_NOT_YET_VALID':
      return new KubeError(
        'tls',
        `The certificate of ${host} is not valid yet; check this computer's clock.`,
        d,
      );
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return new KubeError(
        'tls',
        `${host} did not answer with TLS; check whether the server address should be http or https.`,
        d,
      );
    case 'ECONNREFUSED':
      return new KubeError('unreachable', `${host} refused the connection; the API server may be down.`, d);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return new KubeError('unreachable', `The connection to ${host} was reset.`, d);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new KubeError(
        'dns',
        `The name ${host} could not be resolved (DNS); check the network or VPN.`,
        d,
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return new KubeError('unreachable', `${host} cannot be reached from this network.`, d);
    case 'ETIMEDOUT':
      return new KubeError('timeout', `${host} did not answer in time.`, d);
    case 'ABORT_ERR':
      return new KubeError('aborted', 'The request was cancelled.', d);
  }
  if (code && /^ERR_(SSL|OSSL)_.*(ALERT|CERTIFICATE_REQUIRED)/.test(code)) {
    return new KubeError(
      'tls',
      `${host} rejected the TLS handshake; the client certificate may be wrong or expired (${code}).`,
      d,
    );
  }
  if (code && /^ERR_(SSL|OSSL)_/.test(code)) {
    return new KubeError(
      'tls',
      `The TLS settings for ${host} could not be used (${code}); check the certificates in the kubeconfig.`,
      d,
    );
  }
  const text = err instanceof Error ? err.message : String(err);
  return new KubeError('unreachable', `The connection to ${host} failed: ${shownText(text)}`, d);
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
    return new KubeError('unauthorized', UNAUTHORIZED_SENTENCE, d);
  }
  if (status === 403) return new KubeError('forbidden', `Not allowed ${what}${said}`, d);
  if (status === 410) return new KubeError('expired', `The resource version expired while ${what} (410).`, d);
  if (status === 404)
    return new KubeError(
      'not-found',
      `The server has no such API while ${what} (404); is it a Kubernetes API server?`,
      d,
    );
  if (status === 429) return new KubeError('throttled', `The API server is busy${said}`, d);
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
