/** Which delivery events the timeline keeps, and how: final outcomes only, channel kind:target. */
import { expect, it } from 'vitest';
import type { TimelineDelivery } from '../../common/timeline.ts';
import type { DeliveryEvent } from '../forward/recorder.ts';
import { timelineDeliveries } from './forward-timeline.ts';

const event = (outcome: DeliveryEvent['outcome'], detail: string | null): DeliveryEvent => ({
  at: 1_000,
  target: 'phone',
  kind: 'ntfy',
  eventId: '0123456789abcdef0123456789abcdef',
  alertId: 'lab:ready-drop:2026-12-01T22:00:00.000Z',
  outcome,
  attempt: 1,
  detail,
});

it('keeps delivered, failed, dropped and expired with their alert; not the retries', () => {
  const kept: [string, TimelineDelivery][] = [];
  const r = timelineDeliveries({ recordDelivery: (id, d) => kept.push([id, d]) });
  r.record(event('retrying', 'ntfy h: connection refused; retrying in 2 s'));
  r.record(event('delivered', null));
  r.record(event('failed', 'ntfy h: 403 forbidden — check the token'));
  r.record(event('dropped', 'queue full (100 messages): the oldest was dropped'));
  r.record(event('expired', 'older than 24 h: not sent'));
  expect(
    kept.map(([id, d]) => [id === 'lab:ready-drop:2026-12-01T22:00:00.000Z', d.channel, d.ok, d.message]),
  ).toEqual([
    [true, 'ntfy:phone', true, null],
    [true, 'ntfy:phone', false, 'ntfy h: 403 forbidden — check the token'],
    [true, 'ntfy:phone', false, 'queue full (100 messages): the oldest was dropped'],
    [true, 'ntfy:phone', false, 'older than 24 h: not sent'],
  ]);
});
