import { describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../common/fleet.ts';
import { applyDelta } from '../../common/fleet-delta.ts';
import type { PushEvents } from '../../common/ipc.ts';
import { context, fleet, inventory, node } from '../../renderer/fixtures/homelab.ts';
import { SnapshotPublisher } from './snapshot-publisher.ts';

type Pushed = {
  channel: 'fleet:snapshot' | 'fleet:delta';
  payload: PushEvents['fleet:snapshot' | 'fleet:delta'];
};

function publisher(epoch = 'e1') {
  const pushed: Pushed[] = [];
  const p = new SnapshotPublisher((channel, payload) => pushed.push({ channel, payload }), epoch);
  return { p, pushed };
}

const lab = (ready: boolean): FleetSnapshot =>
  fleet([context('lab', inventory([node('gpu-a', { ready }), node('gpu-b')]))], 'lab');

describe('SnapshotPublisher', () => {
  it('pushes the first snapshot whole, then numbered deltas that rebuild each snapshot', () => {
    const { p, pushed } = publisher();
    const first = lab(true);
    expect(p.publish(first)).toMatchObject({ epoch: 'e1', seq: 1, focused: 'lab' });
    const second = lab(false);
    expect(p.publish(second)).toMatchObject({ epoch: 'e1', seq: 2 });
    expect(pushed.map((x) => x.channel)).toEqual(['fleet:snapshot', 'fleet:delta']);
    const delta = pushed[1]?.payload as PushEvents['fleet:delta'];
    expect(delta).toMatchObject({ epoch: 'e1', from: 1, to: 2 });
    // Only the flipped entry travels.
    expect(JSON.stringify(delta)).not.toContain('gpu-b');
    expect(applyDelta(first, delta)).toEqual(second);
  });

  it('pushes nothing when only generatedAt changed, and the stamp stays on the last published', () => {
    const { p, pushed } = publisher();
    const first = lab(true);
    p.publish(first);
    const again = p.publish({ ...lab(true), generatedAt: '2026-12-01T10:00:00Z' });
    expect(pushed).toHaveLength(1);
    expect(again).toEqual({ ...first, epoch: 'e1', seq: 1 });
    expect(p.current()).toEqual({ ...first, epoch: 'e1', seq: 1 });
  });

  it('has a random epoch per instance (a restarted host is another stream)', () => {
    const a = new SnapshotPublisher(() => undefined);
    const b = new SnapshotPublisher(() => undefined);
    expect(a.epoch).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(a.epoch).not.toBe(b.epoch);
    expect(a.current()).toBeNull();
  });
});
