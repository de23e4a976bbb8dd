import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import type { Clock } from '../kube/clock.ts';
import { ContextClient, type KubeResponse } from '../kube/context-client.ts';
import { buildCrd, crdName } from './crd.ts';
import { ContextWriteback } from './index.ts';
import { installWriteback } from './install.ts';
import { inventoryPath } from './status-writer.ts';

let sc: SimContext;
let admin: ContextClient;
const clock = new ManualClock();

beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
  admin = new ContextClient(sc.context('sim-admin'));
});
afterAll(async () => {
  admin?.close();
  await sc?.cleanup();
});

const crdPosts = () =>
  sc.sim.control
    .requestLog()
    .filter(
      (r) =>
        r.method === 'POST' && r.path.startsWith('/apis/apiextensions.k8s.io/v1/customresourcedefinitions'),
    ).length;

/** A CRD as another operator might have installed it: same names and shape, a looser schema. */
function foreignCrd(group: string, scope = 'Cluster') {
  const crd = buildCrd(group);
  const v = crd.spec.versions[0];
  if (!v) throw new Error('no version');
  return {
    ...crd,
    metadata: { name: crdName(group) },
    spec: {
      ...crd.spec,
      scope,
      versions: [
        {
          ...v,
          additionalPrinterColumns: [],
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

async function post(body: unknown) {
  const res = await admin.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  expect(res.status).toBe(201);
}

describe('installWriteback against the sim', () => {
  it('creates the CRD, waits until Established, creates the cluster object; a second run reuses both', async () => {
    sc.sim.control.resetRequestLog();
    expect(await installWriteback(admin, { group: 'gpufleet.io', clock })).toEqual({
      group: 'gpufleet.io',
      crd: 'created',
      object: 'created',
      updated: false,
      dropped: [],
    });
    const cr = (await admin.getJson(inventoryPath('gpufleet.io'), 'cr')) as { kind: string };
    expect(cr.kind).toBe('GpuInventory');
    expect(await installWriteback(admin, { group: 'gpufleet.io', clock })).toEqual({
      group: 'gpufleet.io',
      crd: 'existing',
      object: 'existing',
      updated: false,
      dropped: [],
    });
    expect(crdPosts()).toBe(1);
  });

  it('uses an existing CRD of the same shape under the user group as it is, and writes to it', async () => {
    await post(foreignCrd('gpufleet.example.dev'));
    sc.sim.control.resetRequestLog();
    const r = await installWriteback(admin, { group: 'gpufleet.example.dev', clock });
    expect(r).toMatchObject({ crd: 'existing', object: 'created' });
    expect(crdPosts()).toBe(0);
    const events: string[] = [];
    const wb = new ContextWriteback(
      {
        context: 'sim-admin',
        client: admin,
        group: 'gpufleet.example.dev',
        configMapNamespace: 'default',
        clock,
      },
      (e) => events.push(`${e.target}:${e.action}`),
    );
    const inv = {
      observed_at: '2026-11-29T21:00:00Z',
      total_gpu_nodes: 0,
      ready_gpu_nodes: 0,
      total_gpus: 0,
      nodes: [],
    };
    wb.update(inv, false);
    clock.advance(0);
    await expect.poll(() => events.length, { timeout: 5000, interval: 5 }).toBe(2);
    expect(events.sort()).toEqual(['configmap:written', 'status:written']);
    wb.stop();
  });

  it('refuses a CRD of another shape under that name, saying what differs', async () => {
    await post(foreignCrd('other.example.com', 'Namespaced'));
    await expect(installWriteback(admin, { group: 'other.example.com', clock })).rejects.toMatchObject({
      phase: 'crd-mismatch',
      message:
        'The CRD gpuinventories.other.example.com exists but has another shape: scope is Namespaced, not Cluster.',
    });
  });

  it('a CRD of that name whose status schema differs is not "the same shape": a type change is a mismatch, missing extras are named', async () => {
    const withStatus = (group: string, status: Record<string, unknown>) => {
      const c = foreignCrd(group);
      const v = c.spec.versions[0];
      if (!v) throw new Error('no version');
      return {
        ...c,
        spec: {
          ...c.spec,
          versions: [
            {
              ...v,
              schema: {
                openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' }, status } },
              },
            },
          ],
        },
      };
    };
    const node = {
      type: 'object',
      properties: Object.fromEntries(
        ['name', 'product', 'workload']
          .map((k) => [k, { type: 'string' }])
          .concat([
            ['ready', { type: 'boolean' }],
            ['count', { type: 'integer' }],
            ['memory', { type: 'integer' }],
          ]),
      ),
    };
    const status = (totalGpus: string) => ({
      type: 'object',
      properties: {
        observed_at: { type: 'string' },
        total_gpu_nodes: { type: 'integer' },
        ready_gpu_nodes: { type: 'integer' },
        total_gpus: { type: totalGpus },
        nodes: { type: 'array', items: node },
      },
    });
    await post(withStatus('typed.example.com', status('string')));
    await expect(installWriteback(admin, { group: 'typed.example.com', clock })).rejects.toMatchObject({
      phase: 'crd-mismatch',
      message:
        'The CRD gpuinventories.typed.example.com exists but has another shape: status.total_gpus is of type string, not integer.',
    });
    await post(withStatus('older.example.com', status('integer')));
    const r = await installWriteback(admin, { group: 'older.example.com', clock });
    expect(r).toMatchObject({ crd: 'existing', updated: false });
    expect(r.dropped).toEqual(
      expect.arrayContaining(['status.nodes_omitted', 'status.nodes[].not_ready_reason']),
    );
  });

  it('checks permission first: the read-only user is told which verb on which resource is missing', async () => {
    const ro = new ContextClient(sc.context('sim-readonly'));
    sc.sim.control.resetRequestLog();
    await expect(installWriteback(ro, { group: 'ro.example.com', clock })).rejects.toMatchObject({
      phase: 'forbidden',
      message:
        'Not allowed to create customresourcedefinitions in API group "apiextensions.k8s.io" at the cluster scope.',
    });
    expect(crdPosts()).toBe(0);
    ro.close();
  });
});

describe('installWriteback in the window after a CRD is created', () => {
  it('retries the text 404 and the 429 "storage is (re)initializing" until the object can be created', async () => {
    const established = {
      status: { conditions: [{ type: 'Established', status: 'True' }] },
      ...buildCrd('w.example.com'),
    };
    const script: [string, KubeResponse][] = [
      ['GET /apis/apiextensions', reply(404, { kind: 'Status', reason: 'NotFound', details: { name: 'x' } })],
      ['POST /apis/authorization', reply(201, { status: { allowed: true } })],
      ['POST /apis/apiextensions', reply(201, {})],
      ['GET /apis/apiextensions', reply(200, established)],
      ['GET /apis/w.example.com', { status: 404, headers: {}, body: '404 page not found\n' }],
      [
        'GET /apis/w.example.com',
        reply(429, { message: 'storage is (re)initializing', reason: 'TooManyRequests' }),
      ],
      [
        'GET /apis/w.example.com',
        reply(404, { kind: 'Status', reason: 'NotFound', details: { name: 'cluster' } }),
      ],
      ['POST /apis/w.example.com', reply(201, {})],
    ];
    const seen: string[] = [];
    const fake = {
      request: async (method: string, path: string) => {
        const next = script.shift();
        seen.push(`${method} ${path}`);
        if (!next || !`${method} ${path}`.startsWith(next[0]))
          throw new Error(`unexpected ${method} ${path}`);
        return next[1];
      },
    } as unknown as ContextClient;
    const r = await installWriteback(fake, { group: 'w.example.com', clock: instantClock(), pollMs: 10 });
    expect(r).toEqual({
      group: 'w.example.com',
      crd: 'created',
      object: 'created',
      updated: false,
      dropped: [],
    });
    expect(script).toEqual([]);
    expect(seen.at(-1)).toBe('POST /apis/w.example.com/v1/gpuinventories');
  });
});

function reply(status: number, body: unknown): KubeResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** A clock whose timers fire on the next turn of the event loop, moving time by their delay. */
function instantClock(): Clock {
  let now = 0;
  return {
    now: () => now,
    setTimeout: (fn, ms) =>
      setImmediate(() => {
        now += ms;
        fn();
      }),
    clearTimeout: () => undefined,
    sleep: (ms) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          now += ms;
          resolve();
        }),
      ),
  };
}
