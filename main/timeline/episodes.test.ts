import { describe, expect, it } from 'vitest';
import type { NodeChange } from '../../common/timeline.ts';
import { episodesOf } from './episodes.ts';

const ch = (
  node: string,
  at: number,
  from: string,
  to: string,
  kind: NodeChange['kind'] = 'ready',
): NodeChange => ({
  node,
  at,
  kind,
  from,
  to,
  reason: to === 'Ready' ? null : 'KubeletNotReady',
  message: to === 'Ready' ? null : 'kubelet stopped posting status',
});

describe('episodesOf', () => {
  it('makes one episode from NotReady to Ready, through Unknown, counting events and alerts in it', () => {
    const eps = episodesOf(
      [
        ch('nuc1', 100, 'Ready', 'NotReady'),
        ch('nuc1', 150, 'NotReady', 'Unknown'),
        ch('nuc1', 200, 'Unknown', 'Ready'),
      ],
      [],
      [
        {
          node: 'nuc1',
          type: 'Warning',
          reason: 'NodeNotReady',
          message: 'x',
          count: 2,
          first: 90,
          last: 120,
        },
        { node: 'nuc1', type: 'Normal', reason: 'Later', message: 'x', count: 1, first: 300, last: 300 },
      ],
      [{ id: 'a1', at: 130, kind: 'ready-drop', nodes: ['nuc1'], title: '', body: '', deliveries: [] }],
    );
    expect(eps).toEqual([
      {
        kind: 'not-ready',
        node: 'nuc1',
        from: 100,
        to: 200,
        state: 'Unknown',
        reason: 'KubeletNotReady',
        message: 'kubelet stopped posting status',
        events: 1,
        alerts: 1,
      },
    ]);
  });

  it('leaves an episode open at the end, and turns unreachable spans and withdrawn GPUs into episodes', () => {
    const eps = episodesOf(
      [
        ch('a', 10, 'Ready', 'NotReady'),
        ch('b', 20, '4/4', '2/4', 'gpus'),
        ch('b', 40, '2/4', '4/4', 'gpus'),
      ],
      [{ kind: 'unreachable', from: 5, to: 8, message: 'connection refused' }],
      [],
      [],
    );
    expect(eps.map((e) => [e.kind, e.node, e.from, e.to, e.state])).toEqual([
      ['unreachable', null, 5, 8, 'unreachable'],
      ['not-ready', 'a', 10, null, 'NotReady'],
      ['gpus-withdrawn', 'b', 20, 40, '2/4'],
    ]);
  });

  it('does not count a node that left while Ready as an outage', () => {
    expect(episodesOf([ch('a', 10, 'Ready', 'absent')], [], [], [])).toEqual([]);
  });
});
