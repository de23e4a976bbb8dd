// Real `gpu-fleet controller` processes against the sim (served from this test process over HTTPS).
// They run on real time, so they use short election timings (--lease-duration 4s --renew-deadline 3s
// --retry-period 500ms); client-go's defaults are proven on the ManualClock in election.test.ts.
// kill -9 of the leader: the other takes over and writes a node flip; SIGTERM: the lease is released,
// the standby takes over and the stopped process exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { DEFAULT_CRD_GROUP, installWriteback } from '../../main/writeback/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/gpu-fleet.mjs');
const LEASE = '/apis/coordination.k8s.io/v1/namespaces/default/leases/gpu-fleet-controller';

interface Proc {
  id: string;
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exit: Promise<number | null>;
}

let s: SimContext;
let admin: ContextClient;
const procs: Proc[] = [];

function startController(id: string, context: string): Proc {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'controller',
      `--kubeconfig=${s.kubeconfigPath}`,
      `--context=${context}`,
      `--id=${id}`,
      '--lease-namespace=default',
      '--metrics-addr=127.0.0.1:0',
      '--lease-duration=4s',
      '--renew-deadline=3s',
      '--retry-period=500ms',
    ],
    { env: { PATH: process.env.PATH ?? '', HOME: s.dir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  child.stdout?.on('data', (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const l of parts) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
  });
  child.stderr?.on('data', () => undefined);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const p = { id, child, lines, exit };
  procs.push(p);
  return p;
}

const said = (p: Proc, prefix: string) => p.lines.some((l) => String(l.msg).startsWith(prefix));

async function getJson(p: string): Promise<Record<string, unknown>> {
  const res = await admin.request('GET', p, { headers: { Accept: 'application/json' } });
  return res.status === 200 ? (JSON.parse(res.body) as Record<string, unknown>) : {};
}
const holder = async () =>
  String(((await getJson(LEASE)).spec as { holderIdentity?: string })?.holderIdentity);

/** Polls an async check on real time; the limit is the bound, not a benchmark. */
async function pollAsync(check: () => Promise<boolean>, what: string, limitMs: number): Promise<void> {
  let ok = false;
  let busy = false;
  await pollUntil(
    () => {
      if (!busy) {
        busy = true;
        check()
          .then((v) => {
            ok = v;
          })
          .catch(() => undefined)
          .finally(() => {
            busy = false;
          });
      }
      return ok;
    },
    what,
    { limitMs, everyMs: 50 },
  );
}

beforeAll(async () => {
  s = await startSimContext();
  admin = new ContextClient(s.context('sim-admin'));
  await installWriteback(admin, { group: DEFAULT_CRD_GROUP, clock: systemClock });
});

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exit));
  admin.close();
  await s.cleanup();
});

describe('gpu-fleet controller processes', () => {
  it('kill -9 of the leader: the other takes over and reflects a node flip; SIGTERM hands over', async () => {
    const a = startController('proc-a', 'sim-admin');
    const b = startController('proc-b', 'sim-revocable');
    await pollUntil(() => said(a, 'became leader') || said(b, 'became leader'), 'a leader', {
      limitMs: 30_000,
    });
    const [leader, standby] = said(a, 'became leader') ? [a, b] : [b, a];
    expect(await holder()).toBe(leader.id);
    // Wait until the standby is synced too: it keeps its cache warm.
    await pollUntil(() => said(standby, 'node cache synced'), 'the standby synced', { limitMs: 30_000 });
    await pollAsync(
      async () =>
        ((await getJson(`/apis/${DEFAULT_CRD_GROUP}/v1/gpuinventories/cluster`)).status ?? null) !== null,
      'the first status write',
      30_000,
    );
    const gpuNodes = async () =>
      (
        (await getJson(`/apis/${DEFAULT_CRD_GROUP}/v1/gpuinventories/cluster`)).status as {
          nodes: { name: string; ready: boolean }[];
        }
      ).nodes;
    const first = (await gpuNodes())[0];
    if (!first) throw new Error('no GPU node in the scenario');
    const node = first.name;
    const wasReady = first.ready;
    const readyOf = async () => (await gpuNodes()).find((n) => n.name === node)?.ready;

    leader.child.kill('SIGKILL');
    await leader.exit;
    s.sim.control.setNodeReady(node, wasReady ? 'False' : 'True', 'TestFlip', 'flipped by the test');
    await pollAsync(
      async () => (await holder()) === standby.id && (await readyOf()) === !wasReady,
      'the standby to take over and write the flip',
      20_000,
    );
    expect(said(standby, 'became leader')).toBe(true);

    // A new standby, then SIGTERM of the current leader: it releases the lease and exits 0.
    const c = startController('proc-c', 'sim-admin');
    await pollUntil(() => said(c, `leader is now "${standby.id}"`), 'the new standby to see the leader', {
      limitMs: 30_000,
    });
    standby.child.kill('SIGTERM');
    await pollUntil(() => said(c, 'became leader'), 'the hand-over after SIGTERM', { limitMs: 3_000 });
    expect(await standby.exit).toBe(0);
    expect(said(standby, 'released the lease')).toBe(true);
    expect(await holder()).toBe(c.id);
  }, 120_000);
});
