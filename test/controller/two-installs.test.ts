// Two installs of the controller in different namespaces elect a leader each and would both write the
// one cluster-scoped GpuInventory under the same field manager (no conflict ever seen). The status names
// the Lease of its writer; the other install's leader sees that and reports a conflict instead.
import { afterEach, expect, it } from 'vitest';
import { type Fleet, startFleet } from './harness.ts';

let fleet: Fleet | null = null;
afterEach(async () => {
  await fleet?.close();
  fleet = null;
});

it('the second install does not write over the first: its leader reports the conflict, naming both Leases', async () => {
  const f = await startFleet(['install-a-0', 'install-b-0'], {}, ['default', 'kube-system']);
  fleet = f;
  const [a, b] = f.replicas as [Fleet['replicas'][number], Fleet['replicas'][number]];
  a.controller.start();
  await f.run(20_000, async () => (await f.status()) !== undefined && a.controller.leading);
  await f.run(30_000, async () => ((await f.status())?.nodes.length ?? 0) > 0);
  const status = (await f.status()) as unknown as { writer?: string };
  expect(status.writer).toBe('default/gpu-fleet-controller');
  b.controller.start();
  const refused = () =>
    b.logs.find(
      (l) => l.msg === 'write-back' && l.action === 'failed' && String(l.reason).includes('another install'),
    );
  // Its own Lease is not the other's: it leads its install (two leaders are expected here).
  for (let i = 0; i < 600 && !refused(); i++) {
    f.clock.advance(50);
    await new Promise((r) => setTimeout(r, 8));
  }
  expect(String(refused()?.reason)).toContain(
    'status is written by the controller of Lease default/gpu-fleet-controller (another install); this controller (Lease kube-system/gpu-fleet-controller) does not write over it',
  );
  // A change: only install A writes it.
  const node = (await f.status())?.nodes[0];
  if (!node) throw new Error('no node');
  f.s.sim.control.setNodeReady(node.name, node.ready ? 'False' : 'True');
  for (let i = 0; i < 400; i++) {
    f.clock.advance(50);
    await new Promise((r) => setTimeout(r, 8));
  }
  expect((await f.status())?.nodes.find((n) => n.name === node.name)?.ready).toBe(!node.ready);
  const statusWriters = f.s.sim.control
    .requestLog()
    .filter((e) => e.method === 'PATCH' && e.status < 300 && /gpuinventories\/cluster\/status/.test(e.path))
    .map((e) => e.user);
  expect(new Set(statusWriters)).toEqual(new Set([a.user]));
}, 120_000);
