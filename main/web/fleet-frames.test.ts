/**
 * The fleet stream over the bridge's event stream: ids on fleet frames, a whole snapshot first for a
 * connection whose Last-Event-ID is not the current one, nothing more for one that is, and only a mark
 * (the current id, no snapshot: the page reads its own) for a new one.
 */
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../common/fleet.ts';
import type { SyncedSnapshot } from '../../common/fleet-sync.ts';
import { context, fleet, inventory, node } from '../../renderer/fixtures/homelab.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type InvokeHandlers, PushHub } from '../fleet/host.ts';
import { SnapshotPublisher } from '../fleet/snapshot-publisher.ts';
import { FleetFrames } from './fleet-frames.ts';
import { cookieName } from './guard.ts';
import { startWebBridge, type WebBridge } from './server.ts';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const lab = (ready: boolean): FleetSnapshot =>
  fleet([context('lab', inventory([node('gpu-a', { ready }), node('gpu-b')]))], 'lab');

async function bridge() {
  const hub = new PushHub();
  const publisher = new SnapshotPublisher((c, p) => hub.emit(c, p), 'epoch1');
  let current = lab(true);
  // The engine published before any page connected, as in the app.
  publisher.publish(current);
  const handlers = { 'fleet:snapshot': () => publisher.publish(current) } as unknown as InvokeHandlers;
  const b = await startWebBridge({
    host: { handlers, onPush: (l) => hub.on(l) },
    staticDir: mkdtempSync(path.join(tmpdir(), 'gpu-fleet-frames-')),
    clock: new ManualClock(),
  });
  closers.push(() => b.close());
  const set = (s: FleetSnapshot) => {
    current = s;
    publisher.publish(s);
  };
  return { b, set };
}

/** An event-stream connection that collects what it is sent. */
function listen(b: WebBridge, lastEventId?: string) {
  let text = '';
  const headers: Record<string, string> = {
    host: `127.0.0.1:${b.port}`,
    cookie: `${cookieName(b.port)}=${b.token}`,
  };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const req = http.get({ host: '127.0.0.1', port: b.port, path: '/api/events', headers }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
    });
  });
  req.on('error', () => undefined);
  closers.push(() => void req.destroy());
  const frames = () =>
    text
      .split('\n\n')
      .filter((f) => f.startsWith('id: '))
      .map((f) => ({ id: f.split('\n')[0]?.slice(4), event: f.split('\n')[1]?.slice(7) }));
  return { frames };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe('the fleet stream over server-sent events', () => {
  it('sends a new connection only the current id as a mark, then deltas with theirs', async () => {
    const { b, set } = await bridge();
    const one = listen(b);
    await until(() => one.frames().length === 1);
    expect(one.frames()).toEqual([{ id: 'epoch1:1', event: 'fleet:mark' }]);
    set(lab(false));
    await until(() => one.frames().length === 2);
    expect(one.frames()[1]).toEqual({ id: 'epoch1:2', event: 'fleet:delta' });
  });

  it('sends nothing more to a reconnection that holds the current snapshot; a whole one to any other', async () => {
    const { b, set } = await bridge();
    const first = listen(b);
    await until(() => first.frames().length === 1);
    expect(first.frames()).toEqual([{ id: 'epoch1:1', event: 'fleet:mark' }]);
    set(lab(false));
    await until(() => first.frames().length === 2);
    const current = listen(b, 'epoch1:2');
    const behind = listen(b, 'epoch1:1');
    const otherEpoch = listen(b, 'other:2');
    const garbage = listen(b, '__proto__:constructor');
    await until(() => [behind, otherEpoch, garbage].every((c) => c.frames().length === 1));
    for (const c of [behind, otherEpoch, garbage])
      expect(c.frames()).toEqual([{ id: 'epoch1:2', event: 'fleet:snapshot' }]);
    set(lab(true));
    await until(() => current.frames().length === 1);
    expect(current.frames()).toEqual([{ id: 'epoch1:3', event: 'fleet:delta' }]);
  });
});

describe('the bridge while its own read is out', () => {
  it('catches a reconnection up to the last frame it sent, not to where its read began', async () => {
    const answers: ((s: SyncedSnapshot) => void)[] = [];
    const handlers = {
      'fleet:snapshot': () => new Promise<SyncedSnapshot>((resolve) => answers.push(resolve)),
    } as unknown as InvokeHandlers;
    const frames = new FleetFrames({ handlers, onPush: () => () => undefined });
    const publisher = new SnapshotPublisher((c, p) => frames.frame(c, p), 'epoch1');
    const sent: string[] = [];
    const send = (_c: string, frame: string) => sent.push(frame.split('\n')[0] ?? '');
    // The first page connected before any snapshot: the bridge reads one, and that read is slow.
    frames.catchUp(() => undefined, send);
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toHaveLength(1);
    publisher.publish(lab(true));
    publisher.publish(lab(false));
    // A page whose last frame was the first snapshot reconnects: it needs epoch1:2.
    frames.catchUp(() => 'epoch1:1', send);
    expect(sent).toEqual(['id: epoch1:2']);
    // The first page hears the place once the read is answered.
    answers[0]?.(publisher.publish(lab(false)));
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual(['id: epoch1:2', 'id: epoch1:2']);
  });
});
