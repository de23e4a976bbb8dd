/**
 * Write-back against the simulator over real HTTPS: the "Done when" of issue 5. The writers run on a
 * ManualClock (coalescing, quiet periods), the engine on real time; writes are counted in the sim's
 * request log, never timed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { FleetEngine } from '../fleet/engine.ts';
import { inventoriesEqual } from '../inventory/aggregate.ts';
import { ContextClient } from '../kube/context-client.ts';
import {
  CONFIGMAP_NAME,
  ContextWriteback,
  DEFAULT_CRD_GROUP,
  installWriteback,
  type WriteEvent,
} from './index.ts';
import { applyObject } from './ssa.ts';
import { inventoryPath } from './status-writer.ts';

const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));
if (!KUBECTL)
  console.warn('kubectl not found in /usr/bin or /usr/local/bin: skipping the kubectl gpuinv check');
const GROUP = DEFAULT_CRD_GROUP;

let sc: SimContext;
let admin: ContextClient;
let engine: FleetEngine;
let latest: GpuInventoryStatus | null = null;
const clock = new ManualClock();

beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
  admin = new ContextClient(sc.context('sim-admin'));
  await installWriteback(admin, { group: GROUP, clock: new ManualClock() });
  engine = new FleetEngine({ coalesceMs: 0 });
  engine.on((e) => {
    if (e.type === 'inventory' && e.context === 'sim-admin') latest = e.inventory;
  });
  engine.setContexts([sc.context('sim-admin')]);
  await vi.waitFor(() => expect(latest).not.toBeNull(), { timeout: 10_000 });
});
afterAll(async () => {
  engine?.stop();
  admin?.close();
  await sc?.cleanup();
});

const patches = (pathPart: string) =>
  sc.sim.control.requestLog().filter((r) => r.method === 'PATCH' && r.path.includes(pathPart)).length;
const current = () => latest as GpuInventoryStatus;

function writer(opts: { client?: ContextClient; group?: string; namespace?: string } = {}) {
  const events: WriteEvent[] = [];
  const wb = new ContextWriteback(
    {
      context: 'sim-admin',
      client: opts.client ?? admin,
      group: opts.group ?? GROUP,
      configMapNamespace: opts.namespace ?? 'kube-system',
      clock,
      minIntervalMs: 5000,
    },
    (e) => events.push(e),
  );
  const of = (action: WriteEvent['action']) => events.filter((e) => e.action === action);
  return { wb, events, of };
}

/** Feeds the engine's latest inventory, lets the timers run, waits until `count` more outcomes arrived. */
async function cycle(w: ReturnType<typeof writer>, count: number, advanceMs = 5000) {
  const before = w.events.length;
  w.wb.update(current(), false);
  clock.advance(advanceMs);
  await expect
    .poll(() => w.events.length - before, { timeout: 5000, interval: 5 })
    .toBeGreaterThanOrEqual(count);
  return w.events.slice(before);
}

async function flipAndWait(node: string, status: 'True' | 'False', ready: number) {
  sc.sim.control.setNodeReady(node, status);
  await expect.poll(() => current().ready_gpu_nodes, { timeout: 5000, interval: 5 }).toBe(ready);
}

describe('ContextWriteback against the sim', () => {
  let main: ReturnType<typeof writer>;
  beforeAll(() => {
    main = writer();
  });

  it('writes the status and the ConfigMap once; the CR status equals the inventory', async () => {
    sc.sim.control.resetRequestLog();
    const out = await cycle(main, 2, 0);
    expect(out.map((e) => [e.target, e.action]).sort()).toEqual([
      ['configmap', 'written'],
      ['status', 'written'],
    ]);
    expect([patches('/gpuinventories/cluster/status'), patches('/configmaps/')]).toEqual([1, 1]);
    const cr = (await admin.getJson(inventoryPath(GROUP), 'reading the CR')) as {
      status: GpuInventoryStatus;
    };
    expect(inventoriesEqual(cr.status, current())).toBe(true);
    expect(cr.status.observed_at).toBe(current().observed_at);
    const cm = (await admin.getJson(`/api/v1/namespaces/kube-system/configmaps/${CONFIGMAP_NAME}`, 'cm')) as {
      data: Record<string, string>;
    };
    expect(Object.keys(cm.data).sort()).toEqual(['nuc1', 'nuc2', 'omen', 'omen2', 'summary']);
    expect(JSON.parse(cm.data.summary ?? '')).toEqual({
      ready_gpu_nodes: 0,
      total_gpu_nodes: 4,
      total_gpus: 1,
    });
    expect(JSON.parse(cm.data.nuc1 ?? '')).toMatchObject({ name: 'nuc1', ready: false, count: 1 });
    expect(main.wb.state()).toMatchObject({ phase: 'idle', writes: 2, message: null });
  });

  it.skipIf(!KUBECTL)('kubectl get gpuinv shows the printer columns', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(KUBECTL as string, [
      '--kubeconfig',
      sc.kubeconfigPath,
      '--cache-dir',
      path.join(sc.dir, 'kcache'),
      'get',
      'gpuinv',
    ]);
    const [head, row] = stdout.trim().split('\n');
    expect(head?.split(/\s+/)).toEqual(['NAME', 'READY', 'NODES', 'GPUS', 'AGE']);
    expect(row?.split(/\s+/).slice(0, 4)).toEqual(['cluster', '0', '4', '1']);
  });

  it('a quiet minute makes no write after the first', async () => {
    sc.sim.control.resetRequestLog();
    clock.advance(60_000);
    await admin.getJson('/version', 'a round trip so any write in flight would be logged');
    expect(sc.sim.control.requestLog().filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it('a node flip makes exactly one status write and one ConfigMap write', async () => {
    sc.sim.control.resetRequestLog();
    await flipAndWait('nuc1', 'True', 1);
    const out = await cycle(main, 2);
    expect(out.map((e) => e.action)).toEqual(['written', 'written']);
    expect([patches('/gpuinventories/cluster/status'), patches('/configmaps/')]).toEqual([1, 1]);
  });

  it('coalesces a burst of node changes into one write per target', async () => {
    sc.sim.control.resetRequestLog();
    await flipAndWait('nuc2', 'True', 2);
    main.wb.update(current(), false);
    await flipAndWait('omen', 'True', 3);
    const out = await cycle(main, 2);
    expect(out.map((e) => e.action)).toEqual(['written', 'written']);
    expect(sc.sim.control.requestLog().filter((r) => r.method === 'PATCH')).toHaveLength(2);
  });

  it('a restart against an unchanged cluster makes zero writes', async () => {
    main.wb.stop();
    sc.sim.control.resetRequestLog();
    const again = writer();
    const out = await cycle(again, 2, 0);
    expect(out.map((e) => [e.action, e.reason])).toEqual([
      ['skipped', 'no change'],
      ['skipped', 'no change'],
    ]);
    expect(sc.sim.control.requestLog().filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(again.wb.state()).toMatchObject({ phase: 'idle', writes: 0, skipped: 2 });
    again.wb.stop();
  });

  it('a missing CRD is crd-missing and does not stop the ConfigMap writer', async () => {
    const w = writer({ group: 'missing.example.com', namespace: 'default' });
    const out = await cycle(w, 2, 0);
    expect(out.map((e) => [e.target, e.action]).sort()).toEqual([
      ['configmap', 'written'],
      ['status', 'failed'],
    ]);
    expect(w.wb.state().phase).toBe('crd-missing');
    expect(w.wb.state().message).toMatch(/gpuinventories\.missing\.example\.com\) is not installed/);
    w.wb.stop();
  });

  it('the read-only user gets forbidden, naming the verb and the resource', async () => {
    const ro = new ContextClient(sc.context('sim-readonly'));
    const w = writer({ client: ro });
    await cycle(w, 2, 0);
    const { phase, message } = w.wb.state();
    expect(phase).toBe('forbidden');
    expect(message).toContain('may not get gpuinventories in API group "gpufleet.io" at the cluster scope');
    expect(message).toContain('may not get configmaps in the namespace "kube-system"');
    w.wb.stop();
    ro.close();
  });

  it('an apply body without apiVersion and kind is refused with 400, mapped to invalid', async () => {
    const ctx = { what: 'writing', missing: { phase: 'crd-missing' as const, message: () => 'missing' } };
    const err = await applyObject(
      admin,
      inventoryPath(GROUP, 'status'),
      { metadata: { name: 'cluster' } },
      'x',
      ctx,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ phase: 'invalid', status: 400 });
    expect((err as Error).message).toContain('invalid object type: /, Kind=');
  });

  it('a removed node disappears from the status and its ConfigMap key is dropped', async () => {
    const w = writer();
    await cycle(w, 2, 0);
    sc.sim.control.removeNode('omen');
    await expect.poll(() => current().total_gpu_nodes, { timeout: 5000, interval: 5 }).toBe(3);
    const out = await cycle(w, 2);
    expect(out.map((e) => e.action)).toEqual(['written', 'written']);
    const cm = (await admin.getJson(`/api/v1/namespaces/kube-system/configmaps/${CONFIGMAP_NAME}`, 'cm')) as {
      data: Record<string, string>;
    };
    expect(Object.keys(cm.data).sort()).toEqual(['nuc1', 'nuc2', 'omen2', 'summary']);
    w.wb.stop();
  });
});
