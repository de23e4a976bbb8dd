import { describe, expect, it } from 'vitest';
import { contextSnapshot, inventory } from '../test/fixtures/snapshots.ts';
import type { ConnectionPhase } from './connection.ts';
import type { FleetHealth } from './fleet.ts';
import { byWorstFirst, type ContextHealth, contextHealth, fleetHealth } from './health.ts';

// One table for every caller: what a context is, what its card says, and what it makes the tray alone.
const CASES: readonly [string, ReturnType<typeof contextSnapshot>, ContextHealth, FleetHealth][] = [
  ['all ready', contextSnapshot('a', 'live', inventory(4, 4)), 'ready', 'all-ready'],
  ['some down', contextSnapshot('a', 'live', inventory(3, 4)), 'degraded', 'degraded'],
  ['all down', contextSnapshot('a', 'live', inventory(0, 4)), 'down', 'down'],
  ['live with no GPU nodes', contextSnapshot('a', 'live', inventory(0, 0)), 'empty', 'idle'],
  [
    'no GPU nodes while reconnecting',
    contextSnapshot('a', 'reconnecting', inventory(0, 0)),
    'connecting',
    'idle',
  ],
  ['still connecting', contextSnapshot('a', 'connecting', null), 'connecting', 'idle'],
  [
    'unreachable with a last inventory',
    contextSnapshot('a', 'unreachable', inventory(4, 4)),
    'error',
    'unreachable',
  ],
  [
    'reconnecting keeps its inventory',
    contextSnapshot('a', 'reconnecting', inventory(2, 4)),
    'degraded',
    'degraded',
  ],
  ['stale but live', contextSnapshot('a', 'live', inventory(1, 1), { stale: true }), 'ready', 'all-ready'],
  // Between two flaps every node is Ready: still degraded, or the card and the icon flip with each flap.
  [
    'all ready but a node flapping',
    contextSnapshot('a', 'live', inventory(4, 4), { flapping: ['lab-l4'] }),
    'degraded',
    'degraded',
  ],
  [
    'all down and a node flapping',
    contextSnapshot('a', 'live', inventory(0, 4), { flapping: ['lab-l4'] }),
    'down',
    'down',
  ],
];

describe('contextHealth and fleetHealth of one context', () => {
  it.each(CASES)('%s', (_name, ctx, card, tray) => {
    expect(contextHealth(ctx)).toBe(card);
    expect(fleetHealth([ctx], false)).toBe(tray);
  });

  it.each(['unauthorized', 'forbidden', 'config-error', 'unreachable'] as ConnectionPhase[])(
    '%s is an error even with a full inventory',
    (phase) => {
      const ctx = contextSnapshot('a', phase, inventory(4, 4));
      expect(contextHealth(ctx)).toBe('error');
      expect(fleetHealth([ctx], false)).toBe('unreachable');
    },
  );
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

  it('a context without GPU nodes neither hides nor fakes readiness', () => {
    const empty = contextSnapshot('e', 'live', inventory(0, 0));
    expect(fleetHealth([empty, contextSnapshot('a', 'live', inventory(2, 2))], false)).toBe('all-ready');
    expect(fleetHealth([empty, contextSnapshot('a', 'live', inventory(0, 2))], false)).toBe('down');
    expect(fleetHealth([empty, empty], false)).toBe('idle');
  });
});

it('byWorstFirst orders worst first and keeps ties in the given order', () => {
  const sorted = [
    contextSnapshot('ok1', 'live', inventory(4, 4)),
    contextSnapshot('empty', 'live', inventory(0, 0)),
    contextSnapshot('down', 'live', inventory(0, 2)),
    contextSnapshot('wait', 'connecting', null),
    contextSnapshot('ok2', 'live', inventory(1, 1)),
    contextSnapshot('gone', 'unreachable', inventory(1, 1)),
  ].sort(byWorstFirst);
  expect(sorted.map((c) => c.context)).toEqual(['gone', 'down', 'wait', 'ok1', 'ok2', 'empty']);
});
