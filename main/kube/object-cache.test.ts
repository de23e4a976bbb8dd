import { describe, expect, it } from 'vitest';
import { NODES } from '../fleet/node-watch.ts';
import type { NodeFacts } from '../inventory/node-facts.ts';
import { ObjectCache } from './object-cache.ts';

const facts = (name: string, over: Partial<NodeFacts> = {}): NodeFacts => ({
  name,
  uid: name.length,
  resourceVersion: '1',
  labels: { 'nvidia.com/gpu.count': '1' },
  ready: { status: 'True', reason: 'KubeletReady', message: null, since: '2026-11-29T10:00:00Z' },
  capacity: {},
  allocatable: {},
  unschedulable: false,
  taints: [],
  health: [],
  ...over,
});

describe('ObjectCache of NODES', () => {
  it.each([
    { name: 'new node', ev: { type: 'upsert' as const, object: facts('c') }, changed: true, size: 3 },
    {
      name: 'rv-only change (heartbeat)',
      ev: { type: 'upsert' as const, object: facts('a', { resourceVersion: '9' }) },
      changed: false,
      size: 2,
    },
    {
      name: 'ready flips',
      ev: {
        type: 'upsert' as const,
        object: facts('a', { ready: { status: 'False', reason: 'X', message: null, since: null } }),
      },
      changed: true,
      size: 2,
    },
    {
      name: 'label change',
      ev: { type: 'upsert' as const, object: facts('a', { labels: {} }) },
      changed: true,
      size: 2,
    },
    { name: 'delete known', ev: { type: 'delete' as const, name: 'a' }, changed: true, size: 1 },
    { name: 'delete unknown', ev: { type: 'delete' as const, name: 'zz' }, changed: false, size: 2 },
    {
      name: 'identical relist',
      ev: { type: 'replace' as const, objects: [facts('b', { resourceVersion: '5' }), facts('a')] },
      changed: false,
      size: 2,
    },
    {
      name: 'relist drops one',
      ev: { type: 'replace' as const, objects: [facts('a')] },
      changed: true,
      size: 1,
    },
    {
      name: 'relist swaps one',
      ev: { type: 'replace' as const, objects: [facts('a'), facts('x')] },
      changed: true,
      size: 2,
    },
    { name: 'relist to empty', ev: { type: 'replace' as const, objects: [] }, changed: true, size: 0 },
  ])('$name: changed=$changed', ({ ev, changed, size }) => {
    const cache = new ObjectCache(NODES);
    cache.apply({ type: 'replace', objects: [facts('a'), facts('b')] });
    const before = cache.view.version;
    expect(cache.apply(ev)).toBe(changed);
    expect(cache.view.version).toBe(before + (changed ? 1 : 0));
    expect(cache.view.size).toBe(size);
  });

  it('stores the newest resourceVersion even when nothing else changed', () => {
    const cache = new ObjectCache(NODES);
    cache.apply({ type: 'upsert', object: facts('a') });
    cache.apply({ type: 'upsert', object: facts('a', { resourceVersion: '7' }) });
    expect(cache.view.get('a')?.resourceVersion).toBe('7');
    expect(cache.view.version).toBe(1);
  });

  it('the view reads live data', () => {
    const cache = new ObjectCache(NODES);
    const v = cache.view;
    cache.apply({ type: 'replace', objects: [facts('a'), facts('b')] });
    expect([...v.values()].map((n) => n.name)).toEqual(['a', 'b']);
    expect(v.has('a')).toBe(true);
    expect(v.get('nope')).toBeUndefined();
  });
});
