/**
 * A kubeconfig user with the `oidc` auth provider, handed to @kubernetes/client-node (auth-options.ts),
 * against the sim started as a server that accepts an OIDC issuer's ID tokens (sim/oidc.ts) and a loopback
 * issuer over HTTPS (discovery document, token endpoint, keys). A valid id-token is sent and accepted. An
 * expired one is NOT refreshed: client-node 2.0.1 hands openid-client 6 the issuer URL as a string where it
 * requires a URL (kubernetes-client/javascript#2202), so the refresh throws before the issuer is asked.
 * The context then fails as unauthorized, in one sentence that holds no token. When an upgrade fixes the
 * refresh, the last test fails: make it assert the refresh, and say so in docs/how-it-works.md.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { makeTls } from '../../sim/tls.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from './context-client.ts';
import { KubeError } from './errors.ts';
import { findContext, loadKubeconfig } from './kubeconfig.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';

const CLIENT_ID = 'gpu-fleet';
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
function jwt(key: KeyObject, claims: Record<string, unknown>): string {
  const data = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64(claims)}`;
  return `${data}.${sign('sha256', Buffer.from(data), key).toString('base64url')}`;
}

const issuerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
let issuer = '';
let idp: https.Server;
let caPem = '';
/** Every request the issuer got ("GET /.well-known/openid-configuration", "POST /token"). */
const asked: string[] = [];
let sc: SimContext;

/** An id-token of the issuer for alice (system:masters through the groups claim), `expIn` s from now. */
const idToken = (expIn: number, key: KeyObject = issuerKey.privateKey) => {
  const now = Math.floor(Date.now() / 1000);
  return jwt(key, {
    iss: issuer,
    aud: CLIENT_ID,
    sub: 'alice',
    groups: ['system:masters'],
    iat: now,
    exp: now + expIn,
  });
};

beforeAll(async () => {
  const tls = await makeTls();
  caPem = tls.caPem;
  idp = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    asked.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/keys`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
          }),
        );
      } else if (req.method === 'POST' && req.url === '/token') {
        const body = {
          access_token: 'a',
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: 'refresh-2',
        };
        res.end(JSON.stringify({ ...body, id_token: idToken(3600) }));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  const addr = idp.address();
  issuer = `https://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const publicKeyPem = issuerKey.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  sc = await startSimContext({
    scenario: 'homelab',
    oidc: { issuerUrl: issuer, clientId: CLIENT_ID, publicKeyPem, groupsClaim: 'groups' },
  });
});
afterAll(async () => {
  await sc?.cleanup();
  await new Promise((resolve) => idp?.close(resolve));
});

/** A context of the sim's cluster whose user is `user` (a kubeconfig `user:` mapping). */
function contextWith(name: string, user: Record<string, unknown>): ResolvedContext {
  const kc = parse(sc.sim.kubeconfigYaml()) as {
    users: { name: string; user: unknown }[];
    contexts: { name: string; context: { cluster: string; user: string } }[];
  };
  const cluster = kc.contexts[0]?.context.cluster ?? '';
  kc.users.push({ name, user });
  kc.contexts.push({ name, context: { cluster, user: name } });
  const file = path.join(sc.dir, `${name}.yaml`);
  fs.writeFileSync(file, stringify(kc), { mode: 0o600 });
  const load = loadKubeconfig({ explicitPath: file });
  if (load.kind !== 'loaded') throw new Error(load.message);
  const ctx = findContext(load, name);
  if (!ctx) throw new Error(`no context ${name}`);
  return ctx;
}

const oidcUser = (config: Record<string, string>) => ({
  'auth-provider': {
    name: 'oidc',
    config: {
      'client-id': CLIENT_ID,
      'idp-issuer-url': issuer,
      'idp-certificate-authority-data': Buffer.from(caPem).toString('base64'),
      ...config,
    },
  },
});

async function listNodes(ctx: ResolvedContext): Promise<number> {
  const client = new ContextClient(ctx);
  try {
    return (await client.request('GET', '/api/v1/nodes')).status;
  } finally {
    client.close();
  }
}

const lastUser = () => sc.sim.control.requestLog().at(-1)?.user;

describe('an oidc kubeconfig user, through client-node', () => {
  it("sends a valid id-token, and the sim takes it as the issuer's user", async () => {
    const ctx = contextWith(
      'oidc-valid',
      oidcUser({ 'id-token': idToken(3600), 'refresh-token': 'refresh-1' }),
    );
    expect(await listNodes(ctx)).toBe(200);
    expect(lastUser()).toBe(`${issuer}#alice`);
    expect(asked).toEqual([]);
  });

  it('the sim refuses an expired id-token and one signed by another key (401)', async () => {
    const statuses = [];
    for (const [i, token] of [idToken(-60), idToken(3600, otherKey.privateKey)].entries())
      statuses.push(await listNodes(contextWith(`oidc-bad-${i}`, { token })));
    expect(statuses).toEqual([401, 401]);
  });

  it('does not refresh an expired id-token (client-node 2.0.1): unauthorized, in a sentence with no token', async () => {
    const expired = idToken(-60);
    const ctx = contextWith('oidc-expired', oidcUser({ 'id-token': expired, 'refresh-token': 'refresh-1' }));
    const err = await listNodes(ctx).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(KubeError);
    expect((err as KubeError).kind).toBe('unauthorized');
    expect((err as KubeError).message).toBe(
      'The credentials could not be refreshed: "server" must be an instance of URL',
    );
    expect((err as KubeError).message).not.toContain('refresh-1');
    // The refresh fails before discovery: the issuer is never asked.
    expect(asked).toEqual([]);
  });
});
