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
});
