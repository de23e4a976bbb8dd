import { describe, expect, it } from 'vitest';
import { contextSnapshot, inventory } from '../../test/fixtures/snapshots.ts';
import { byWorstFirst, contextHealth, fleetHealth } from './health.ts';

describe('contextHealth', () => {
  it.each([
    ['all ready', contextSnapshot('a', 'live', inventory(4, 4)), 'all-ready'],
    ['some down', contextSnapshot('a', 'live', inventory(3, 4)), 'degraded'],
    ['all down', contextSnapshot('a', 'live', inventory(0, 4)), 'down'],
    ['no GPU nodes', contextSnapshot('a', 'live', inventory(0, 0)), 'all-ready'],
    ['still connecting', contextSnapshot('a', 'connecting', null), 'idle'],
    [
      'unreachable with a last inventory',
      contextSnapshot('a', 'unreachable', inventory(4, 4)),
      'unreachable',
    ],
    ['unauthorized', contextSnapshot('a', 'unauthorized', null), 'unreachable'],
    ['reconnecting keeps its inventory', contextSnapshot('a', 'reconnecting', inventory(2, 4)), 'degraded'],
  ] as const)('%s', (_name, ctx, expected) => {
    expect(contextHealth(ctx)).toBe(expected);
  });
});

describe('fleetHealth', () => {
  it('is the worst context, and paused wins', () => {
    const contexts = [
      contextSnapshot('a', 'live', inventory(4, 4)),
      contextSnapshot('b', 'live', inventory(1, 4)),
    ];
    expect(fleetHealth(contexts, false)).toBe('degraded');
    expect(fleetHealth([...contexts, contextSnapshot('c', 'unreachable', null)], false)).toBe('unreachable');
    expect(fleetHealth(contexts, true)).toBe('paused');
    expect(fleetHealth([], false)).toBe('idle');
  });

  it('orders contexts worst first, stable for ties', () => {
    const sorted = [
      contextSnapshot('ok1', 'live', inventory(4, 4)),
      contextSnapshot('down', 'live', inventory(0, 2)),
      contextSnapshot('ok2', 'live', inventory(1, 1)),
      contextSnapshot('gone', 'unreachable', inventory(1, 1)),
    ].sort(byWorstFirst);
    expect(sorted.map((c) => c.context)).toEqual(['gone', 'down', 'ok1', 'ok2']);
  });
});
