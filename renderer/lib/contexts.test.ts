import { describe, expect, it } from 'vitest';
import { context, homelab, inventory, mixedFleet, node, unreachable } from '../fixtures/homelab.ts';
import { cardHealth, sortContexts } from './contexts.ts';

describe('cardHealth', () => {
  it.each([
    ['unreachable with stale data', unreachable(), 'error'],
    ['all NotReady', homelab(), 'down'],
    ['some ready', context('x', inventory([node('a'), node('b', { ready: false })])), 'degraded'],
    ['all ready', context('x', inventory([node('a')])), 'ready'],
    [
      'no inventory yet',
      context('x', null, { connection: { ...homelab().connection, phase: 'connecting' } }),
      'connecting',
    ],
    ['live without GPU nodes', context('x', inventory([])), 'empty'],
  ])('%s → %s', (_name, ctx, health) => {
    expect(cardHealth(ctx)).toBe(health);
  });

  it('treats every credential or config failure like unreachable', () => {
    for (const phase of ['unauthorized', 'forbidden', 'config-error'] as const) {
      const ctx = context('x', inventory([node('a')]), { connection: { ...homelab().connection, phase } });
      expect(cardHealth(ctx)).toBe('error');
    }
  });
});

it('sorts worst first, then by name', () => {
  const names = sortContexts(mixedFleet().contexts).map((c) => c.context);
  expect(names).toEqual(['office', 'homelab', 'gpu-cloud', 'new-cluster', 'workstation']);
});
