import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { classifyNetworkError, errorFromResponse, toKubeError } from './error-classify.ts';
import { KubeError } from './errors.ts';

const server = 'https://k8s.example:6443';
const sysErr = (code: string) => Object.assign(new Error(`boom ${code}`), { code });

describe('classifyNetworkError', () => {
  it.each([
    ['ECONNREFUSED', 'unreachable', 'unreachable', /refused/],
    ['ECONNRESET', 'unreachable', 'unreachable', /reset/],
    ['ENOTFOUND', 'dns', 'unreachable', /DNS/],
    ['EAI_AGAIN', 'dns', 'unreachable', /DNS/],
    ['EHOSTUNREACH', 'unreachable', 'unreachable', /cannot be reached/],
    ['ETIMEDOUT', 'timeout', 'unreachable', /in time/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls', 'config-error', /certificate authority/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls', 'config-error', /certificate authority/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls', 'config-error', /certificate authority/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls', 'config-error', /host name/],
    ['CERT_HAS_EXPIRED', 'tls', 'config-error', /expired/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls', 'config-error', /http or https/],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'tls', 'config-error', /client certificate/],
    ['ERR_OSSL_PEM_NO_START_LINE', 'tls', 'config-error', /certificates in the kubeconfig/],
    ['EWHATEVER', 'unreachable', 'unreachable', /failed: boom EWHATEVER/],
  ])('%s → %s / %s', (code, kind, phase, words) => {
    const e = classifyNetworkError(sysErr(code), server);
    expect(e.kind).toBe(kind);
    expect(e.phase).toBe(phase);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(words);
  });

  it('names the host, not the whole URL', () => {
    expect(classifyNetworkError(sysErr('ECONNREFUSED'), server).message).toContain('k8s.example:6443');
  });

  it('carries its sentence as a catalog key, so the window words it; the English is the message', () => {
    const e = classifyNetworkError(sysErr('ECONNREFUSED'), 'https://admin:pw@k8s.example:6443');
    expect(e.words).toEqual({ key: 'kubeError.refused', vars: { host: 'k8s.example:6443' } });
    expect(e.message).toBe('k8s.example:6443 refused the connection; the API server may be down.');
    const words = e.words as NonNullable<typeof e.words>;
    expect(translator('ja').t(words.key, words.vars)).toBe(
      'k8s.example:6443 が接続を拒否しました。API サーバーが停止している可能性があります。',
    );
  });

  it('gates outside text in the values as in the message', () => {
    const e = classifyNetworkError(new Error('bad\u001b[2J\nthing token=abc'), server);
    expect(e.words?.key).toBe('kubeError.failed');
    const why = String(e.words?.vars.why);
    expect(Array.from(why).some((c) => (c.codePointAt(0) ?? 0) < 32)).toBe(false);
    expect(e.message).toBe(`The connection to k8s.example:6443 failed: ${e.words?.vars.why}`);
  });
});

describe('errorFromResponse', () => {
  const status = (code: number, message: string, reason = 'X') =>
    JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });

  it.each([
    [
      401,
      status(401, 'Unauthorized'),
      'unauthorized',
      'unauthorized',
      /rejected the credentials, or they have expired/,
    ],
    [
      403,
      status(403, 'nodes is forbidden: User "ro" cannot list resource "nodes"'),
      'forbidden',
      'forbidden',
      /Not allowed listing nodes: nodes is forbidden: User "ro"/,
    ],
    [410, status(410, 'too old'), 'expired', 'reconnecting', /expired/],
    [404, '404 page not found\n', 'not-found', 'config-error', /Kubernetes API server/],
    [429, status(429, 'storage is (re)initializing'), 'throttled', 'unreachable', /busy: storage/],
    [
      503,
      'Service Unavailable',
      'server',
      'unreachable',
      /failed while listing nodes \(503\): Service Unavailable/,
    ],
    [
      400,
      'Client sent an HTTP request to an HTTPS server.',
      'config',
      'config-error',
      /refused listing nodes \(400\)/,
    ],
  ])('%i → %s', (code, body, kind, phase, words) => {
    const e = errorFromResponse(code, body, {}, 'listing nodes');
    expect(e.kind).toBe(kind);
    expect(e.phase).toBe(phase);
    expect(e.status).toBe(code);
    expect(e.message).toMatch(words);
  });

  it('reads Retry-After in seconds', () => {
    expect(errorFromResponse(429, '', { 'retry-after': '2' }, 'listing nodes').retryAfterMs).toBe(2000);
    expect(errorFromResponse(429, '', { 'retry-after': 'soon' }, 'listing nodes').retryAfterMs).toBeNull();
  });
});

describe('toKubeError', () => {
  it('passes KubeErrors through and classifies the rest', () => {
    const k = new KubeError('config', 'x');
    expect(toKubeError(k, server)).toBe(k);
    expect(toKubeError(sysErr('ECONNREFUSED'), server).kind).toBe('unreachable');
    expect(new KubeError('timeout', 't').transient).toBe(true);
    expect(new KubeError('forbidden', 'f').transient).toBe(false);
  });
});
