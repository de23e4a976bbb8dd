/** A detail reads one page of events and pods: when the server says more follow, the detail says so. */
import { describe, expect, it } from 'vitest';
import { rawNode } from '../../test/fixtures/nodes.ts';
import { assembleDetail } from './detail.ts';

const list = (token?: string) => ({ kind: 'List', metadata: token ? { continue: token } : {}, items: [] });

describe('assembleDetail with more than one page', () => {
  const node = rawNode({ name: 'gpu-1', ready: 'True' });
  const opts = { now: Date.UTC(2026, 11, 1) };

  it('names each part of which only the first page was read', () => {
    const d = assembleDetail(
      'lab',
      'gpu-1',
      node,
      { ok: true, list: list('eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ') },
      { ok: true, list: list('next') },
      opts,
    );
    expect(d.partial).toEqual(['events: only the first 500 were read', 'pods: only the first 500 were read']);
  });

  it('says nothing when each part fitted one page', () => {
    const d = assembleDetail(
      'lab',
      'gpu-1',
      node,
      { ok: true, list: list() },
      { ok: true, list: list('') },
      opts,
    );
    expect(d.partial).toEqual([]);
  });
});
