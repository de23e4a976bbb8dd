import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { SseClient } from './sse.ts';

/** A stand-in for Node's ServerResponse whose socket is full until the test lets it drain. */
class SlowResponse extends EventEmitter {
  written: string[] = [];
  full = false;
  destroyed = false;
  writableLength = 0;
  write(frame: string): boolean {
    this.written.push(frame);
    return !this.full;
  }
  drain(): void {
    this.full = false;
    this.emit('drain');
  }
  destroy(): void {
    this.destroyed = true;
  }
  end(): void {}
}

const frame = (channel: string, n: number) => `event: ${channel}\ndata: ${n}\n\n`;

function slowClient(maxHeldBytes = 1 << 20, fresh: () => string | null = () => null) {
  const res = new SlowResponse();
  const client = new SseClient(
    res as unknown as http.ServerResponse,
    new ManualClock(),
    { maxBlockedMs: 60_000, maxHeldBytes, maxHeldDeltaBytes: 100 },
    fresh,
  );
  return { res, client };
}

describe('SseClient while the browser is slow', () => {
  it('keeps only the newest snapshot but every alert, in order', () => {
    const { res, client } = slowClient();
    res.full = true;
    client.send('fleet:snapshot', frame('fleet:snapshot', 0));
    for (let i = 1; i <= 3; i++) {
      client.send('alerts:new', frame('alerts:new', i));
      client.send('fleet:snapshot', frame('fleet:snapshot', i));
    }
    client.send('app:notice', frame('app:notice', 9));
    res.written = [];
    res.drain();
    expect(res.written).toEqual([
      frame('alerts:new', 1),
      frame('alerts:new', 2),
      frame('alerts:new', 3),
      frame('fleet:snapshot', 3),
      frame('app:notice', 9),
    ]);
  });

  it('drops the client when what waits passes the byte cap, instead of growing', () => {
    const { res, client } = slowClient(1000);
    res.full = true;
    client.send('alerts:new', frame('alerts:new', 0));
    for (let i = 0; i < 200 && !client.closed; i++) client.send('alerts:new', frame('alerts:new', i));
    expect([client.closed, res.destroyed]).toEqual([true, true]);
    expect(client.bufferedBytes).toBe(0);
  });

  it('keeps fleet deltas in order while they fit, after the alerts and notices they came with', () => {
    const { res, client } = slowClient();
    res.full = true;
    client.send('alerts:new', frame('alerts:new', 0));
    client.send('fleet:delta', frame('fleet:delta', 1));
    client.send('alerts:new', frame('alerts:new', 1));
    client.send('fleet:delta', frame('fleet:delta', 2));
    res.written = [];
    res.drain();
    expect(res.written).toEqual([frame('fleet:delta', 1), frame('alerts:new', 1), frame('fleet:delta', 2)]);
  });

  it('trades deltas past the budget for one fresh whole snapshot on drain, keeping the alerts', () => {
    let now = 0;
    const { res, client } = slowClient(1 << 20, () => frame('fleet:snapshot', now));
    res.full = true;
    client.send('fleet:snapshot', frame('fleet:snapshot', 0));
    for (let i = 1; i <= 10; i++) {
      client.send('fleet:delta', frame('fleet:delta', i));
      if (i === 5) client.send('alerts:new', frame('alerts:new', 5));
    }
    now = 10;
    res.written = [];
    res.drain();
    // The old snapshot and every delta are gone; the snapshot of now replaces them.
    expect(res.written).toEqual([frame('alerts:new', 5), frame('fleet:snapshot', 10)]);
    client.send('fleet:delta', frame('fleet:delta', 11));
    expect(res.written.at(-1)).toBe(frame('fleet:delta', 11));
  });

  it('lets a whole snapshot replace the deltas held before it, and keeps the ones after', () => {
    const { res, client } = slowClient();
    res.full = true;
    client.send('alerts:new', frame('alerts:new', 0));
    client.send('fleet:delta', frame('fleet:delta', 1));
    client.send('fleet:snapshot', frame('fleet:snapshot', 2));
    client.send('fleet:delta', frame('fleet:delta', 3));
    res.written = [];
    res.drain();
    expect(res.written).toEqual([frame('fleet:snapshot', 2), frame('fleet:delta', 3)]);
  });
});
