/** Redaction of credentials in text: the patterns, what they leave alone, and cutting after redacting. */
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactSecrets, shownText } from './redact.ts';

describe('redact', () => {
  it.each([
    [{ token: 'abc' }, { token: REDACTED }],
    [{ headers: { Authorization: 'Bearer x' } }, { headers: { Authorization: REDACTED } }],
    [{ msg: 'Bearer abc.def' }, { msg: `Bearer ${REDACTED}` }],
    [{ data: '-----BEGIN PRIVATE KEY-----\nMII' }, { data: REDACTED }],
    [{ jwt: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig' }, { jwt: REDACTED }],
    [
      { context: 'home', ready: 3 },
      { context: 'home', ready: 3 },
    ],
  ])('%o → %o', (input, expected) => {
    expect(redact(input)).toEqual(expected);
  });
});

// [what, input, a secret that must be gone, text that must stay]
const SECRETS: [string, string, string, string][] = [
  [
    'query refresh_token',
    'error: refresh_token=1//0gAbCdEf-xyz&scope=openid',
    '1//0gAbCdEf-xyz',
    'scope=openid',
  ],
  ['client_secret with a space', 'invalid client_secret s3cr3tValue99 given', 's3cr3tValue99', 'given'],
  ['client_secret with =', 'client_secret=abc123def', 'abc123def', 'client_secret='],
  ['password: in YAML style', 'password: hunter2 rejected', 'hunter2', 'rejected'],
  ['credential= in a query', 'POST /login?credential=Zx81kq then', 'Zx81kq', 'then'],
  ['JSON credentials', '{"credentials": "s3cr3t-value", "ok": true}', 's3cr3t-value', '"ok"'],
  ['Authorization header', 'sent Authorization: Bearer abcdef123456', 'abcdef123456', 'Authorization'],
  ['Authorization Basic', 'Authorization: Basic YWRtaW46cHc=', 'YWRtaW46cHc=', 'Basic'],
  ['Proxy-Authorization', 'Proxy-Authorization: Basic dTpw', 'dTpw', 'Proxy-Authorization'],
  [
    'JSON access_token',
    '{"access_token": "ya29.a0AfH6SM", "expires_in": 3599}',
    'ya29.a0AfH6SM',
    'expires_in',
  ],
  ['JSON id_token', '{"id_token":"opaque-id-token-value"}', 'opaque-id-token-value', 'id_token'],
  ['token= in a URL', 'GET https://h/api?token=abc.def.ghi', 'abc.def.ghi', 'https://h/api'],
  ['userinfo in a URL', 'dial https://admin:pw@host:6443/x', 'admin:pw', 'host:6443'],
  ['a bare Bearer token', 'retry with Bearer sha256~AbCdEf0123', 'sha256~AbCdEf0123', 'retry with Bearer'],
  [
    'a JWT',
    'token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl expired',
    'eyJhbGciOiJSUzI1NiJ9',
    'expired',
  ],
  [
    'a PEM key',
    'key -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY----- bad',
    'MHcCAQEE',
    'bad',
  ],
  [
    'a long base64 token',
    'using ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78 now',
    'ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78',
    'now',
  ],
  [
    'a base64url token with dashes',
    'token sha256~Xq3-k9ZpT2vLm8NwQe4R-yB7cHd1fJs6aUo0iGt5E then',
    'Xq3-k9ZpT2vLm8NwQe4R-yB7cHd1fJs6aUo0iGt5E',
    'then',
  ],
];
// Text that must come through untouched.
const HARMLESS = [
  // Our own warning about a kubeconfig that others can read: "credentials:" starts prose, not a secret.
  '/home/u/.kube/config can be read by other users (mode 644); it holds credentials: run chmod 600 on it.',
  'exec plugin "gke-gcloud-auth-plugin" failed: exit status 1',
  'the token has expired; run gcloud auth login',
  '/usr/local/google-cloud-sdk/bin/gke-gcloud-auth-plugin not found',
  'node 123e4567-e89b-12d3-a456-426614174000 is NotReady',
  'image sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 pulled',
  'Not allowed listing nodes: nodes is forbidden: User "system:anonymous" cannot list resource "nodes"',
  // GPU products (GFD labels) of MIG and time-slicing nodes are long, mixed-case, with digits.
  'omen: NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED x1',
  'allocated NVIDIA-H100-80GB-HBM3-MIG-3g.40gb to pod ml/train-0',
];

describe('redactSecrets', () => {
  it.each(SECRETS)('%s', (_, input, secret, kept) => {
    const out = redactSecrets(input);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
    expect(out).toContain(kept);
  });

  it.each(HARMLESS)('leaves %j alone', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('shownText redacts before it cuts, so a cap cannot leave half a secret behind', () => {
    const text = `${'x '.repeat(140)}refresh_token=${'A1b2'.repeat(50)}`;
    const out = shownText(text, 300);
    expect(out).not.toMatch(/A1b2/);
    expect(out.length).toBeLessThanOrEqual(300);
  });
});
