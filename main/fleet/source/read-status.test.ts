/** The controller's GpuInventory status and Lease read as hostile input: types, ranges, caps, control characters. */
import { describe, expect, it } from 'vitest';
import { trimInventory, trimLease } from './controller-objects.ts';
import { MAX_STATUS_NODES, readInventoryStatus } from './read-status.ts';

const entry = (name: string, ready = true, extra: Record<string, unknown> = {}) => ({
  name,
  ready,
  product: 'NVIDIA-L40S',
  count: 4,
  memory: 46068,
  workload: 'container',
  ...extra,
});
const status = (nodes: unknown[], extra: Record<string, unknown> = {}) => ({
  observed_at: '2026-11-29T12:00:00Z',
  total_gpu_nodes: 3,
  ready_gpu_nodes: 2,
  total_gpus: 12,
  nodes,
  ...extra,
});

describe('readInventoryStatus', () => {
  it('keeps a valid status, only the known fields', () => {
    const r = readInventoryStatus(
      status([entry('a'), entry('b'), entry('c', false, { not_ready_reason: 'KubeletNotReady', evil: 1 })], {
        nodes_compacted: true,
        extra: 'x',
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.status.nodes).toHaveLength(3);
    expect(r.status.nodes_compacted).toBe(true);
    expect(Object.keys(r.status)).not.toContain('extra');
    expect(Object.keys(r.status.nodes[2] ?? {})).not.toContain('evil');
  });

  const WORDS = { code: 'withdrawn', vars: { resource: 'nvidia.com/gpu', withdrawn: '1', capacity: '4' } };
  const SENTENCE = '1 of 4 nvidia.com/gpu withdrawn by the device plugin';
  it.each([
    ['well-formed facts beside their sentence', [WORDS], [WORDS]],
    ['more facts than sentences', [WORDS, WORDS], undefined],
    ['a value that is no text', [{ code: 'withdrawn', vars: { capacity: 4 } }], undefined],
    [
      'nine values',
      [{ code: 'x', vars: Object.fromEntries([...'abcdefghi'].map((k) => [k, k])) }],
      undefined,
    ],
    ['a 41-character code', [{ code: 'c'.repeat(41), vars: {} }], undefined],
    ['no list', 'withdrawn', undefined],
  ])('problem_words: %s', (_what, words, kept) => {
    const r = readInventoryStatus(
      status([
        entry('a', true, { problems: [SENTENCE], problem_words: words }),
        entry('b'),
        entry('c', false),
      ]),
    );
    expect(r.ok && r.status.nodes[0]?.problem_words).toEqual(kept);
  });

  it('drops a sentence the text gate empties together with its facts, keeping the other pairs aligned', () => {
    const other = { code: 'labelEmpty', vars: { label: 'nvidia.com/gpu.product' } };
    const r = readInventoryStatus(
      status([
        entry('a', true, { problems: ['', SENTENCE], problem_words: [other, WORDS] }),
        entry('b'),
        entry('c', false),
      ]),
    );
    expect(r.ok && r.status.nodes[0]?.problems).toEqual([SENTENCE]);
    expect(r.ok && r.status.nodes[0]?.problem_words).toEqual([WORDS]);
  });

  it('cuts a fact value with control characters as any cluster text', () => {
    const words = [{ code: 'labelEmpty', vars: { label: `a\u001b[31m${'x'.repeat(500)}` } }];
    const r = readInventoryStatus(
      status([entry('a', true, { problems: ['p'], problem_words: words }), entry('b'), entry('c', false)]),
    );
    const label = r.ok ? r.status.nodes[0]?.problem_words?.[0]?.vars.label : undefined;
    expect(label?.startsWith('ax')).toBe(true);
    expect(label?.length).toBe(200);
  });

  it('reads an unlabeled node as write-back writes it (nulls left out) with nulls', () => {
    const r = readInventoryStatus(status([entry('a'), entry('b'), { name: 'c', ready: false, count: 0 }]));
    if (!r.ok) throw new Error(r.reason);
    expect(r.dropped).toBe(0);
    expect(r.status.nodes[2]).toEqual({
      name: 'c',
      ready: false,
      product: null,
      count: 0,
      memory: null,
      workload: null,
    });
  });

  it('strips control characters and escape sequences from text, and caps it', () => {
    const r = readInventoryStatus(
      status([
        entry('a', true, { product: 'RTX\u001b[31m 4090\nfake line' }),
        entry('b', false, { not_ready_message: `x${'y'.repeat(5000)}`, not_ready_reason: 'A\u202eB' }),
        entry('c'),
      ]),
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.status.nodes[0]?.product).toBe('RTX 4090 fake line');
    expect(r.status.nodes[1]?.not_ready_message?.length).toBeLessThanOrEqual(200);
    expect(r.status.nodes[1]?.not_ready_reason).toBe('A B');
  });

  it('leaves out invalid entries and counts them among the omitted nodes (the totals still count them)', () => {
    const r = readInventoryStatus(
      status(
        [
          entry('a'),
          entry('Bad Name'),
          entry('c', true, { count: 1.5 }),
          entry('a'), // a duplicate
          'not an object',
        ],
        { nodes_omitted: 1, total_gpu_nodes: 6 },
      ),
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.status.nodes.map((n) => n.name)).toEqual(['a']);
    expect(r.dropped).toBe(4);
    expect(r.status.nodes_omitted).toBe(5);
    expect(r.status.total_gpu_nodes).toBe(6);
  });

  it.each([
    ['not an object', 'nope', /no status yet/],
    ['ready above total', status([], { ready_gpu_nodes: 4 }), /not valid/],
    ['a negative total', status([], { total_gpus: -1 }), /not valid/],
    ['a fractional total', status([], { total_gpu_nodes: 2.5 }), /not valid/],
    ['a time that is not RFC 3339', status([], { observed_at: 'yesterday' }), /not valid/],
    ['no node list', status([], { nodes: 'all' }), /no valid node list/],
    [
      'more entries than the cap',
      status(Array.from({ length: MAX_STATUS_NODES + 1 }, (_, i) => entry(`n${i}`))),
      /no valid node list/,
    ],
    [
      'more listed than counted',
      status([entry('a'), entry('b'), entry('c'), entry('d')]),
      /lists more nodes than it counts/,
    ],
    [
      'more listed ready than counted ready',
      status([entry('a'), entry('b'), entry('c')]),
      /lists more nodes than it counts/,
    ],
    ['a bad nodes_omitted', status([], { nodes_omitted: 'many' }), /nodes_omitted/],
  ])('refuses %s', (_what, raw, why) => {
    const r = readInventoryStatus(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(why);
  });
});

describe('the controller objects', () => {
  const lease = (spec: Record<string, unknown>, name = 'gpu-fleet-controller') => ({
    metadata: { name },
    spec,
  });

  it('reads a Lease: holder through the text gate, duration and renewTime checked', () => {
    expect(
      trimLease(
        lease({
          holderIdentity: 'pod-a\u001b]0;x\u0007',
          leaseDurationSeconds: 15,
          renewTime: '2026-11-29T12:00:00.123456Z',
        }),
      ),
    ).toEqual({
      name: 'gpu-fleet-controller',
      holder: 'pod-a',
      durationSeconds: 15,
      renewedAt: Date.parse('2026-11-29T12:00:00.123456Z'),
      freshAt: null,
    });
    expect(trimLease(lease({ holderIdentity: '', leaseDurationSeconds: 0, renewTime: 'soon' }))).toEqual({
      name: 'gpu-fleet-controller',
      holder: null,
      durationSeconds: null,
      renewedAt: null,
      freshAt: null,
    });
    const marked = (v: unknown) => ({
      ...lease({ holderIdentity: 'pod-a' }),
      metadata: { name: 'gpu-fleet-controller', annotations: { 'gpufleet.io/status-fresh-at': v } },
    });
    expect(trimLease(marked('2026-11-29T12:00:01.000000Z'))?.freshAt).toBe(
      Date.parse('2026-11-29T12:00:01Z'),
    );
    expect(trimLease(marked('yesterday'))?.freshAt).toBeNull();
    expect(trimLease(marked(17))?.freshAt).toBeNull();
    expect(trimLease(lease({ leaseDurationSeconds: 1e9 }))?.durationSeconds).toBeNull();
    expect(trimLease(lease({ leaseDurationSeconds: '15' }))?.durationSeconds).toBeNull();
    expect(trimLease(lease({}, 'another-lease'))).toBeNull();
  });

  it('reads the GpuInventory "cluster" only, and says why a status is unusable', () => {
    expect(trimInventory({ metadata: { name: 'other' }, status: status([]) })).toBeNull();
    expect(trimInventory({ metadata: { name: 'cluster' } })).toMatchObject({
      status: null,
      problem: 'its GpuInventory has no status yet',
    });
    expect(
      trimInventory({
        metadata: { name: 'cluster' },
        status: status([entry('a'), entry('b'), entry('c', false)]),
      })?.status?.ready_gpu_nodes,
    ).toBe(2);
  });
});
