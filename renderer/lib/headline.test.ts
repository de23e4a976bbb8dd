import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { contextSnapshot, fleet, inventory } from '../../test/fixtures/snapshots.ts';
import { downNodes, fleetNumbers, headerState } from './headline.ts';

const en = translator('en');
const now = Date.parse('2026-11-29T20:00:00Z');

describe('the header keeps health and the pause apart', () => {
  const contexts = [
    contextSnapshot('home', 'live', inventory(1, 4)),
    contextSnapshot('work', 'live', inventory(2, 2)),
    contextSnapshot('cloud', 'unreachable', inventory(0, 3)),
  ];

  it('counts down GPU nodes of readable contexts only (unreachable is not "down")', () => {
    expect(downNodes(contexts)).toBe(3);
    expect(fleetNumbers(contexts)).toEqual({ ready: 3, total: 9, gpus: 9, clusters: 3, unreachable: 1 });
  });

  it('says "3 GPU nodes down · alerts paused until …" while every context is paused', () => {
    const end = '2026-11-29T21:00:00Z';
    const s = headerState(fleet(contexts.slice(0, 2), { alertsPausedUntil: end, health: 'paused' }), now, en);
    expect(s.health).toBe('degraded');
    expect(s.text).toBe('3 GPU nodes down');
    expect(s.pause).toBe(
      `alerts paused until ${en.dateTime(Date.parse(end), { hour: '2-digit', minute: '2-digit' })}`,
    );
    const forever = headerState(fleet([], { alertsPausedUntil: 'until resumed', health: 'paused' }), now, en);
    expect(forever.pause).toBe('alerts paused until you resume');
    expect(forever.text).toBe('No GPU nodes to report');
  });

  it('names the contexts paused on their own, and says nothing of a pause when there is none', () => {
    const one = [
      contextSnapshot('home', 'live', inventory(1, 4)),
      contextSnapshot('work', 'live', inventory(2, 2), { alertsPausedUntil: 'until resumed' }),
    ];
    expect(headerState(fleet(one), now, en).pause).toBe('alerts paused for work');
    expect(headerState(fleet(contexts.slice(1, 2)), now, en)).toEqual({
      health: 'all-ready',
      text: 'All GPU nodes ready',
      pause: null,
    });
  });
});
