import { describe, expect, it } from 'vitest';
import { PushQueue } from './push-queue.ts';

const recorder = () => {
  const sent: { channel: string; payload: unknown }[] = [];
  return { sent, target: { send: (channel: string, payload: unknown) => sent.push({ channel, payload }) } };
};

describe('PushQueue', () => {
  it('holds pushes until the renderer is ready, then delivers them in order', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target);
    q.send('ui:show', { view: 'settings' });
    q.send('ui:focus', { context: 'lab', node: 'omen' });
    expect(sent).toEqual([]);
    q.markReady();
    expect(sent).toEqual([
      { channel: 'ui:show', payload: { view: 'settings' } },
      { channel: 'ui:focus', payload: { context: 'lab', node: 'omen' } },
    ]);
    q.send('app:notice', { level: 'info', message: 'm' });
    expect(sent).toHaveLength(3);
    q.markReady();
    expect(sent).toHaveLength(3);
  });

  it('holds again after a reload until the new page is ready', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target);
    q.markReady();
    q.reset();
    q.send('ui:show', { view: 'alerts' });
    expect(sent).toEqual([]);
    q.markReady();
    expect(sent).toEqual([{ channel: 'ui:show', payload: { view: 'alerts' } }]);
  });

  it('is bounded: beyond the cap the oldest pushes are dropped and counted', () => {
    const { sent, target } = recorder();
    const q = new PushQueue(target, 3);
    for (const view of ['overview', 'nodes', 'history', 'alerts', 'settings'] as const)
      q.send('ui:show', { view });
    expect(q.held).toBe(3);
    expect(q.dropped).toBe(2);
    expect(q.markReady()).toBe(2);
    expect(q.dropped).toBe(0);
    expect(sent.map((s) => (s.payload as { view: string }).view)).toEqual(['history', 'alerts', 'settings']);
  });
});
