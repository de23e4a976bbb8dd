import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterIdentity, groupByCluster } from './cluster-identity.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function ctx(name: string, cluster: Record<string, unknown> | null, user = 'u'): ResolvedContext {
  return {
    name,
    clusterName: `${name}-cluster`,
    userName: user,
    namespace: null,
    cluster:
      cluster === null
        ? null
        : { cluster: { name: 'c', skipTLSVerify: false, ...cluster } as never, file: 'f' },
    user: null,
    file: 'f',
  };
}

describe('clusterIdentity', () => {
  it('is the same for the same server and CA, inline or in a file, whatever the user or name', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-identity-'));
    const caFile = path.join(dir, 'ca.crt');
    fs.writeFileSync(caFile, CA);
    const a = ctx('a', { server: 'https://10.0.0.1:6443', caData: CA.toString('base64') }, 'admin');
    const b = ctx('b', { server: 'https://10.0.0.1:6443/', caFile }, 'viewer');
    expect(clusterIdentity(a)).not.toBeNull();
    expect(clusterIdentity(a)).toBe(clusterIdentity(b));
  });

  it('differs for another server, port, CA or TLS server name, and is null without a cluster', () => {
    const base = { server: 'https://10.0.0.1:6443', caData: CA.toString('base64') };
    const id = clusterIdentity(ctx('a', base));
    expect(clusterIdentity(ctx('b', { ...base, server: 'https://10.0.0.2:6443' }))).not.toBe(id);
    expect(clusterIdentity(ctx('b', { ...base, server: 'https://10.0.0.1:7443' }))).not.toBe(id);
    expect(clusterIdentity(ctx('b', { ...base, caData: Buffer.from('other').toString('base64') }))).not.toBe(
      id,
    );
    expect(clusterIdentity(ctx('b', { ...base, tlsServerName: 'kubernetes' }))).not.toBe(id);
    expect(clusterIdentity(ctx('b', null))).toBeNull();
  });

  it('groups in the order given; the first of a group is the one watched', () => {
    const one = { server: 'https://a:6443', caData: CA.toString('base64') };
    const two = { server: 'https://b:6443', caData: CA.toString('base64') };
    const groups = groupByCluster([ctx('x', one), ctx('y', two), ctx('z', one), ctx('n', null)]);
    expect(groups.map((g) => g.map((c) => c.name))).toEqual([['x', 'z'], ['y'], ['n']]);
  });

  const v4 = { server: 'https://127.0.0.1:6443', caData: CA.toString('base64') };
  const v6 = { server: 'https://[::1]:6443', caData: CA.toString('base64') };
  const other = { server: 'https://10.9.9.9:6443', caData: CA.toString('base64') };
  it.each([
    ['no uid known: grouped by address only', {}, [['admin4'], ['admin6', 'ro6']]],
    // ro6 cannot read the namespace, but shares admin6's address: all three through admin6's uid.
    [
      'the same uid through two addresses: one cluster',
      { admin4: 'U1', admin6: 'U1' },
      [['admin4', 'admin6', 'ro6']],
    ],
    ['different uids stay apart', { admin4: 'U1', admin6: 'U2' }, [['admin4'], ['admin6', 'ro6']]],
    ['one uid known only: nothing to compare it with', { admin4: 'U1' }, [['admin4'], ['admin6', 'ro6']]],
  ])('%s', (_what, uids: Record<string, string>, want) => {
    const contexts = [ctx('admin4', v4), ctx('admin6', v6), ctx('ro6', v6, 'viewer')];
    const groups = groupByCluster(contexts, (c) => uids[c.name] ?? null);
    expect(groups.map((g) => g.map((c) => c.name))).toEqual(want);
  });

  it('joins two groups that a later context bridges, keeping the order given', () => {
    const groups = groupByCluster([ctx('a', v4), ctx('b', other), ctx('c', v4), ctx('d', other)], (c) =>
      c.name === 'c' || c.name === 'd' ? 'U' : null,
    );
    expect(groups.map((g) => g.map((c) => c.name))).toEqual([['a', 'b', 'c', 'd']]);
  });
});
