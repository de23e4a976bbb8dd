/**
 * The watched events about Nodes are a new input path (main/fleet/node-event-watch.ts): hostile objects
 * are refused or cut down there, before the timeline stores them.
 */
import { describe, expect, it } from 'vitest';
import { trimNodeEvent } from '../../main/fleet/node-event-watch.ts';

const good = (over: Record<string, unknown> = {}) => ({
  metadata: { name: 'nuc2.1', namespace: 'default', uid: 'abc-123' },
  involvedObject: { kind: 'Node', name: 'nuc2' },
  reason: 'NodeNotReady',
  message: 'Node nuc2 status is now: NodeNotReady',
  count: 2,
  firstTimestamp: '2026-12-01T02:00:00Z',
  lastTimestamp: '2026-12-01T02:10:00Z',
  type: 'Normal',
  ...over,
});

describe('hostile node events', () => {
  it('keeps a well-formed one, with its uid, count and times', () => {
    expect(trimNodeEvent(good())).toMatchObject({
      key: 'default/nuc2.1',
      node: 'nuc2',
      event: { uid: 'abc-123', count: 2, reason: 'NodeNotReady', last: '2026-12-01T02:10:00Z' },
    });
  });

  it.each([
    ['no object', null],
    ['a string', 'event'],
    ['no metadata', { ...good(), metadata: undefined }],
    ['no uid (cannot be deduplicated)', good({ metadata: { name: 'x', namespace: 'default' } })],
    ['a uid that is no uid', good({ metadata: { name: 'x', namespace: 'default', uid: 'a b/../c' } })],
    ['about a Pod', good({ involvedObject: { kind: 'Pod', name: 'nuc2' } })],
    ['a node name no node can have', good({ involvedObject: { kind: 'Node', name: '../etc/passwd' } })],
    [
      'a node name of 10,000 characters',
      good({ involvedObject: { kind: 'Node', name: 'a'.repeat(10_000) } }),
    ],
    ['no time at all', good({ firstTimestamp: 'soon', lastTimestamp: 12 })],
    [
      'a namespace of 10,000 characters',
      good({ metadata: { name: 'x', namespace: 'n'.repeat(10_000), uid: 'u' } }),
    ],
  ])('refuses %s', (_what, raw) => {
    expect(trimNodeEvent(raw)).toBeNull();
  });

  it('cuts a megabyte message and an absurd count, and never lets a secret through', () => {
    const t = trimNodeEvent(
      good({
        message: `token=eyJhbGciOiJSUzI1NiJ9.${'x'.repeat(1_000_000)}`,
        count: 1e15,
        reason: 'r'.repeat(5000),
      }),
    );
    expect(t?.event.message.length).toBeLessThan(2_000);
    expect(t?.event.reason.length).toBeLessThanOrEqual(120);
    expect(t?.event.count).toBeLessThanOrEqual(1_000_000);
    expect(t?.event.message).not.toContain('eyJhbGciOiJSUzI1NiJ9');
  });
});
