/**
 * Issue 24: the engine host is killed (a real SIGKILL of its process) in the middle of an episode and the
 * shell starts a new one on the same timeline database. The node comes back while no host runs: the new
 * host's first inventory closes the open episode (one episode, from the first host's change to the
 * return), and the timeline goes on recording, read over the window's IPC as the History view reads it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TimelineView } from '../../common/timeline.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let sim: RunningSim;
let double: ElectronDouble;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-timeline-restart-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(kubeconfig, { contexts: ['sim-admin'] });
});
afterAll(async () => {
  await double?.close();
  await sim?.close();
});

const live = () => double.utilityProcesses.filter((u) => u.exitCode === undefined);
const nuc2 = (v: TimelineView) => v.episodes.filter((e) => e.kind === 'not-ready' && e.node === 'nuc2');

it('closes the episode that was open when the host was killed, at the first inventory of the next host', async () => {
  double.trays[0]?.menu.find((i) => i.label === 'Open GPU Fleet')?.click?.();
  const contents = double.windows[0]?.webContents;
  if (!contents) throw new Error(`no window: ${JSON.stringify(double.trays[0]?.menu.map((i) => i.label))}`);
  await pollUntil(() => contents.subscribed, 'the page');
  const id = contents.id;
  let view: TimelineView | null = null;
  const read = () =>
    void (
      double.invoke('timeline:range', id, { context: 'sim-admin', range: '1h' }) as Promise<TimelineView>
    ).then(
      (v) => {
        view = v;
      },
      () => undefined,
    );
  const until = (check: (v: TimelineView) => boolean, what: string) =>
    pollUntil(
      () => {
        read();
        return view !== null && check(view);
      },
      what,
      { limitMs: 20_000, everyMs: 100 },
    );

  sim.control.setNodeReady('nuc2', 'False', 'KubeletNotReady', 'container runtime is down');
  await until((v) => nuc2(v).length === 1 && nuc2(v)[0]?.to === null, 'the open episode');
  const opened = view ? nuc2(view)[0] : undefined;
  if (!opened) throw new Error('no episode');

  const [first] = live();
  first?.kill();
  await pollUntil(() => first?.exitCode !== undefined, 'the host to die');
  expect(first?.exitCode).toBeNull();
  // Back while nothing watches it: only the next host can see the change.
  sim.control.setNodeReady('nuc2', 'True');
  const killedAt = Date.now();
  await pollUntil(() => live().length === 1 && double.utilityProcesses.length === 2, 'a new host', {
    limitMs: 20_000,
  });

  view = null;
  await until((v) => nuc2(v).some((e) => e.to !== null), 'the episode closed by the new host');
  const after = view as TimelineView | null;
  if (!after) throw new Error('no view');
  expect(after.status).toEqual({ state: 'recording' });
  // One episode: begun by the killed host, ended by the new one when it saw the node Ready again.
  expect(nuc2(after)).toMatchObject([
    { from: opened.from, state: 'NotReady', reason: 'KubeletNotReady', message: 'container runtime is down' },
  ]);
  expect(nuc2(after)[0]?.to).toBeGreaterThanOrEqual(killedAt - 1_000);
  const readiness = after.changes.filter((c) => c.node === 'nuc2' && c.kind === 'ready');
  expect(readiness.map((c) => [c.from, c.to])).toEqual([
    ['Ready', 'NotReady'],
    ['NotReady', 'Ready'],
  ]);
  // The timeline goes on: the new host's count line ends with every GPU node ready, and a few seconds'
  // absence is no "not recording" gap.
  expect(after.counts.at(-1)?.ready).toBe(4);
  expect(after.spans.filter((s) => s.kind === 'not-recording')).toEqual([]);
});
