/** Turns socket/TLS errors and non-2xx API answers into KubeErrors (see errors.ts for the kinds). */
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
    return new URL(server).host;
  } catch {
    return server;
  }
}

/** A failure below HTTP: the socket, DNS, TLS, or our own timeout. */
export function classifyNetworkError(err: unknown, server: string): KubeError {
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
  return new KubeError('unreachable', `The connection to ${host} failed: ${firstLine(text)}`, d);
}

interface StatusBody {
  message: string | null;
  reason: string | null;
}

function parseStatus(body: string): StatusBody {
  try {
    const o: unknown = JSON.parse(body);
    if (typeof o === 'object' && o !== null) {
      const m = 'message' in o && typeof o.message === 'string' ? o.message : null;
      const r = 'reason' in o && typeof o.reason === 'string' ? o.reason : null;
      return { message: m, reason: r };
    }
  } catch {
    // A text/plain body ("404 page not found") is still worth showing.
  }
  const text = firstLine(body).slice(0, 200);
  return { message: text || null, reason: null };
}

function firstLine(s: string): string {
  return (s.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').trim();
}

function retryAfter(header: string | string[] | undefined): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  const n = v ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 300) * 1000 : null;
}

/** A complete HTTP answer whose status is not 2xx; `what` names the request in words ("listing nodes"). */
export function errorFromResponse(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
  what: string,
): KubeError {
  const { message, reason } = parseStatus(body);
  const d = { status, retryAfterMs: retryAfter(headers['retry-after']) };
  const said = message ? `: ${message}` : '.';
  if (status === 401) {
    return new KubeError(
      'unauthorized',
      'The cluster rejected the credentials, or they have expired (401).',
      d,
    );
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

/** Any thrown value as a KubeError (KubeErrors pass through). */
export function toKubeError(err: unknown, server: string): KubeError {
  if (err instanceof KubeError) return err;
  return classifyNetworkError(err, server);
}
