/**
 * Row 10 (issue 15): bytes pushed to the window for one node flip at 5,000 nodes. Browser mode as a user
 * runs it (`serve`: the app core and the loopback bridge in this process) against a large:5000 simulator
 * in a child process; an event-stream client reads /api/events. One GPU node goes NotReady in the
 * simulator; everything the stream sends until it has been quiet for 2 s is counted (every fleet frame
 * the flip caused, heartbeats aside). The same-run baseline is the whole-snapshot frame the same
 * connection got first (it connects as a reconnection that is behind, with a Last-Event-ID of no current
 * stream, so the bridge sends it one): what every push carried before deltas.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startServe } from '../../main/cli/commands/serve.ts';
import { cookieName } from '../../main/web/guard.ts';
import type { WebBridge } from '../../main/web/server.ts';
import { sleep } from '../lib/flipper.ts';
import { startSimHost } from '../lib/sim-remote.ts';
import type { Row } from '../lib/table.ts';

const NODES = 5000;
const FLIPPED = 'node-0003';
const QUIET_MS = 2000;

interface Frame {
  event: string;
  bytes: number;
  at: number;
}

/** Reads the bridge's event stream and splits it into frames (with their byte sizes, as sent). */
function readStream(bridge: WebBridge): { frames: Frame[]; close: () => void } {
  const frames: Frame[] = [];
  let pending = Buffer.alloc(0);
  const req = http.get(
    {
      host: '127.0.0.1',
      port: bridge.port,
      path: '/api/events',
      headers: {
        host: `127.0.0.1:${bridge.port}`,
        cookie: `${cookieName(bridge.port)}=${bridge.token}`,
        // Behind any stream: the bridge answers with a whole snapshot first (a new connection gets a mark).
        'last-event-id': 'bench:0',
      },
    },
    (res) => {
      res.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const frame = pending.subarray(0, end + 2);
          pending = pending.subarray(end + 2);
          const event = /^event: (.*)$/m.exec(frame.toString('utf8', 0, Math.min(frame.length, 200)))?.[1];
          frames.push({ event: event ?? 'comment', bytes: frame.length, at: Date.now() });
        }
      });
    },
  );
  req.on('error', () => undefined);
  return { frames, close: () => req.destroy() };
}

async function until(what: string, cond: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Waits until no frame but a heartbeat has come for `QUIET_MS`. */
async function quiet(frames: Frame[]): Promise<void> {
  for (;;) {
    const last = frames.filter((f) => f.event !== 'comment').at(-1)?.at ?? 0;
    if (Date.now() - last >= QUIET_MS) return;
    await sleep(100);
  }
}

const kb = (n: number) => (n < 10_240 ? `${(n / 1024).toFixed(2)} KB` : `${(n / 2 ** 20).toFixed(2)} MB`);

export async function pushBytesRows(log: (s: string) => void): Promise<Row[]> {
  log(`row 10: serve against a large:${NODES} simulator, one node flip, bytes on the event stream`);
  const host = await startSimHost({ scenarios: [`large:${NODES}`] });
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-bench-push-'));
  let served: Awaited<ReturnType<typeof startServe>> | null = null;
  let stream: ReturnType<typeof readStream> | null = null;
  try {
    const sim = host.sims[0];
    if (!sim) throw new Error('the simulator host started no simulator');
    served = await startServe(
      { demo: false, port: 0, kubeconfig: sim.kubeconfigPath, env: { GPU_FLEET_CONFIG_DIR: configDir } },
      () => undefined,
    );
    const core = served.core;
    await until(
      'the first full list',
      () => (core.published().contexts[0]?.inventory?.nodes.length ?? 0) > 0,
    );
    stream = readStream(served.bridge);
    const frames = stream.frames;
    await until('the whole snapshot frame', () => frames.some((f) => f.event === 'fleet:snapshot'));
    await quiet(frames);
    const whole = frames.find((f) => f.event === 'fleet:snapshot')?.bytes ?? 0;
    const nodes = core.published().contexts[0]?.inventory?.nodes.length ?? 0;
    const from = frames.length;
    log(`row 10: ${nodes} GPU nodes listed; whole snapshot frame ${whole} B; flipping ${FLIPPED}`);
    await sim.control('setNodeReady', FLIPPED, 'False', 'KubeletNotReady');
    const down = () =>
      core.published().contexts[0]?.inventory?.nodes.find((n) => n.name === FLIPPED)?.ready === false;
    await until(`${FLIPPED} NotReady in the engine`, down, 30_000);
    await quiet(frames);
    const caused = frames.slice(from).filter((f) => f.event !== 'comment');
    const bytes = caused.reduce((sum, f) => sum + f.bytes, 0);
    const deltas = caused.filter((f) => f.event === 'fleet:delta');
    return [
      {
        id: '10',
        measure: `Bytes pushed to the window for one node flip at ${NODES.toLocaleString('en')} nodes (browser mode's event stream, every frame the flip caused)`,
        ours: `${kb(bytes)} in ${caused.length} frame${caused.length === 1 ? '' : 's'} (${deltas.length} fleet:delta: ${deltas.map((d) => `${d.bytes} B`).join(', ')})`,
        baseline: `${kb(whole)} per push (the whole snapshot of ${nodes.toLocaleString('en')} GPU nodes, as every push carried before)`,
        target: '≤ 2 KB',
        met: bytes <= 2048,
        raw: { bytes, frames: caused, whole, nodes },
      },
    ];
  } finally {
    stream?.close();
    await served?.close();
    await host.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  }
}
