import { describe, expect, it } from 'vitest';
import type { PushChannel, PushEvents } from '../../common/ipc.ts';
import { PushQueue } from './push-queue.ts';

/** Records what reached the page, parsed back from the JSON text the queue carries. */
const recorder = () => {
  const sent: { channel: string; payload: unknown }[] = [];
  const target = {
    send: (channel: string, json: string) => sent.push({ channel, payload: JSON.parse(json) }),
  };
  return { sent, target };
};
const put = <P extends PushChannel>(q: PushQueue, channel: P, payload: PushEvents[P]) =>
  q.send(channel, JSON.stringify(payload));

describe('PushQueue', () => {
  it('holds pushes until the renderer is ready, then delivers them in order', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target);
    put(q, 'ui:show', { view: 'settings' });
    put(q, 'ui:focus', { context: 'lab', node: 'omen' });
    expect(sent).toEqual([]);
    q.markReady();
    expect(sent).toEqual([
      { channel: 'ui:show', payload: { view: 'settings' } },
      { channel: 'ui:focus', payload: { context: 'lab', node: 'omen' } },
    ]);
    put(q, 'app:notice', { level: 'info', message: 'm' });
    expect(sent).toHaveLength(3);
    q.markReady();
    expect(sent).toHaveLength(3);
  });

  it('holds again after a reload until the new page is ready', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target);
    q.markReady();
    q.reset();
    put(q, 'ui:show', { view: 'alerts' });
    expect(sent).toEqual([]);
    q.markReady();
    expect(sent).toEqual([{ channel: 'ui:show', payload: { view: 'alerts' } }]);
  });

  it('is bounded: beyond the cap the oldest pushes are dropped and counted', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target, 3);
    for (const view of ['overview', 'nodes', 'history', 'alerts', 'settings'] as const)
      put(q, 'ui:show', { view });
    expect(q.held).toBe(3);
    expect(q.dropped).toBe(2);
    expect(q.markReady()).toBe(2);
    expect(q.dropped).toBe(0);
    expect(sent.map((s) => (s.payload as { view: string }).view)).toEqual(['history', 'alerts', 'settings']);
  });

  it('is bounded in text too: a page that never says ready does not pile up the host pushes', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target, 200, 120); // two of these 59-character pushes
    for (let i = 0; i < 5; i++)
      q.send('app:notice', JSON.stringify({ level: 'info', message: `${i}`.repeat(30) }));
    expect(q.held).toBe(2);
    expect(q.dropped).toBe(3);
    q.markReady();
    expect(sent.map((s) => (s.payload as { message: string }).message[0])).toEqual(['3', '4']);
  });
});
