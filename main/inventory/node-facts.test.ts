/**
 * Trimming raw Nodes: validation, what is kept, and that a bulky node shrinks under 1 KB; and that what
 * the cache keeps from a hostile node is bounded in size, whatever the server sends: distinct huge label
 * values, taints, keys and messages neither grow the intern pool nor the kept NodeFacts (counted in
 * characters, not time).
 */
import { describe, expect, it } from 'vitest';
import { bulkyGpuNode, rawNode } from '../../test/fixtures/nodes.ts';
import { intern, internedChars, MAX_INTERN_LENGTH, MAX_POOL } from './intern.ts';
import { MAX_HEALTH, MAX_KEPT, MAX_TAINTS, type NodeFacts, trimNode } from './node-facts.ts';

describe('trimNode', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'node'],
    ['an array', [{ metadata: { name: 'a' } }]],
    ['no metadata', {}],
    ['metadata without a name', { metadata: {} }],
    ['an empty name', { metadata: { name: '' } }],
    ['a numeric name', { metadata: { name: 5 } }],
    ['metadata as an array', { metadata: ['name'] }],
  ])('refuses %s', (_, raw) => {
    expect(trimNode(raw)).toBeNull();
  });

  it('keeps exactly the facts the inventory needs', () => {
    const raw = rawNode({
      name: 'gpu1',
      resourceVersion: '4711',
      ready: 'False',
      reason: 'KubeletNotReady',
      message: 'PLEG is not healthy',
      since: '2025-06-01T10:00:00Z',
      labels: {
        'nvidia.com/gpu.product': 'Tesla-T4',
        'nvidia.com/mig-1g.5gb.count': '2',
        'nvidia.com/mig-1g.5gb.memory': '4864',
        'nvidia.com/cuda.driver.major': '550',
        'feature.node.kubernetes.io/pci-10de.present': 'true',
        'feature.node.kubernetes.io/cpu-cpuid.AVX2': 'true',
      },
      capacity: { 'nvidia.com/gpu': '1', 'amd.com/gpu': '1' },
      allocatable: { 'nvidia.com/gpu': '0' },
      unschedulable: true,
      taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
    });
    expect(trimNode(raw)).toEqual({
      name: 'gpu1',
      uid: expect.any(Number),
      resourceVersion: '4711',
      labels: {
        'nvidia.com/gpu.product': 'Tesla-T4',
        'nvidia.com/mig-1g.5gb.count': '2',
        'feature.node.kubernetes.io/pci-10de.present': 'true',
      },
      ready: {
        status: 'False',
        reason: 'KubeletNotReady',
        message: 'PLEG is not healthy',
        since: '2025-06-01T10:00:00Z',
      },
      capacity: { 'nvidia.com/gpu': '1' },
      allocatable: { 'nvidia.com/gpu': '0' },
      unschedulable: true,
      taints: [{ key: 'nvidia.com/gpu', value: null, effect: 'NoSchedule' }],
      health: [],
    });
  });

  it.each<[string, unknown, string]>([
    ['no Ready condition', [{ type: 'DiskPressure', status: 'False' }], 'Unknown'],
    ['no conditions at all', undefined, 'Unknown'],
    ['conditions not an array', { Ready: 'True' }, 'Unknown'],
    ['an unknown status word', [{ type: 'Ready', status: 'Maybe' }], 'Unknown'],
    ['Ready=True', [{ type: 'Ready', status: 'True' }], 'True'],
    ['Ready=Unknown', [{ type: 'Ready', status: 'Unknown' }], 'Unknown'],
  ])('readiness with %s', (_, conditions, status) => {
    const facts = trimNode({ metadata: { name: 'n' }, status: { conditions } });
    expect(facts?.ready.status).toBe(status);
  });

  it('tolerates junk in every optional place', () => {
    const facts = trimNode({
      metadata: { name: 'n', labels: ['x'], resourceVersion: 7 },
      spec: {
        unschedulable: 'yes',
        taints: [null, { key: 'k' }, { key: 'k', effect: 'NoExecute', value: 3 }],
      },
      status: { capacity: { 'nvidia.com/gpu': 2, 'nvidia.com/x': { a: 1 } }, allocatable: 'all' },
    });
    expect(facts).toEqual({
      name: 'n',
      uid: 0,
      resourceVersion: '',
      labels: {},
      ready: { status: 'Unknown', reason: null, message: null, since: null },
      capacity: { 'nvidia.com/gpu': '2' },
      allocatable: {},
      unschedulable: false,
      taints: [{ key: 'k', value: null, effect: 'NoExecute' }],
      health: [],
    });
  });

  it('cuts a long kubelet message to one readable line (clusterText: 300 characters, no controls)', () => {
    const facts = trimNode(rawNode({ name: 'n', ready: 'False', message: 'x'.repeat(5000) }));
    expect(facts?.ready.message).toBe(`${'x'.repeat(299)}…`);
    const forged = trimNode(rawNode({ name: 'n', ready: 'False', message: 'ok\u001b[2J\nfake line' }));
    expect(forged?.ready.message).toBe('ok fake line');
  });

  it('passes condition text through the text gate: no escapes, one line, reason capped', () => {
    const facts = trimNode(
      rawNode({
        name: 'n',
        ready: 'False',
        reason: `Kubelet\u001b[2J${'R'.repeat(500)}`,
        message: '\u001b]0;pwned\u0007PLEG is not healthy\nERROR: fake second line\u202e',
      }),
    );
    expect(facts?.ready.message).toBe('PLEG is not healthy ERROR: fake second line');
    expect(facts?.ready.reason).toMatch(/^KubeletR+…$/);
    expect(facts?.ready.reason?.length).toBe(64);
  });

  it('trims a realistic ~14 KB GPU node to well under 1 KB', () => {
    const raw = bulkyGpuNode('dgx-a100-017');
    const rawSize = JSON.stringify(raw).length;
    expect(rawSize).toBeGreaterThan(12_000);
    expect(rawSize).toBeLessThan(20_000);
    const trimmed = JSON.stringify(trimNode(raw));
    expect(trimmed.length).toBeLessThan(1024);
    expect(trimmed).toContain('NVIDIA-A100-SXM4-80GB');
  });
});

describe('trimNode keeps the cache small', () => {
  it('keeps label values and reasons, and gives nodes without GPU labels or taints one shared empty set', () => {
    // (String sharing through intern() is not observable from JS; npm run bench measures its effect.)
    const raw = (name: string) =>
      JSON.parse(
        JSON.stringify({
          metadata: {
            name,
            labels: { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3', 'kubernetes.io/os': 'linux' },
          },
          status: {
            conditions: [
              { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy' },
            ],
          },
        }),
      ) as unknown;
    const a = trimNode(raw('a'));
    const b = trimNode(raw('b'));
    expect(a?.labels['nvidia.com/gpu.product']).toBe('NVIDIA-H100-80GB-HBM3');
    expect(b?.labels['nvidia.com/gpu.product']).toBe('NVIDIA-H100-80GB-HBM3');
    expect(a?.ready.reason).toBe('KubeletNotReady');
    const cpu1 = trimNode({ metadata: { name: 'c1', labels: { 'kubernetes.io/os': 'linux' } } });
    const cpu2 = trimNode({ metadata: { name: 'c2' } });
    expect(cpu1?.labels).toBe(cpu2?.labels);
    expect(cpu1?.taints).toBe(cpu2?.taints);
    expect(Object.isFrozen(cpu1?.labels)).toBe(true);
  });

  it('keeps the uid as a small-integer hash: equal for the same object, different for a re-created one', () => {
    const withUid = (uid: string) => trimNode({ metadata: { name: 'n', uid }, status: {} })?.uid;
    const a = withUid('8f2b9c1e-4d3a-4b7e-9a10-1c2d3e4f5a6b');
    expect(a).toBe(withUid('8f2b9c1e-4d3a-4b7e-9a10-1c2d3e4f5a6b'));
    expect(a).not.toBe(withUid('8f2b9c1e-4d3a-4b7e-9a10-1c2d3e4f5a6c'));
    expect(Number.isInteger(a) && (a as number) > 0 && (a as number) < 2 ** 30).toBe(true);
    expect(trimNode({ metadata: { name: 'n' }, status: {} })?.uid).toBe(0);
  });
});

const MB = 1 << 20;

/** Every character a NodeFacts holds in its strings (keys included). */
function charsOf(f: NodeFacts): number {
  let n = f.name.length + f.resourceVersion.length;
  for (const m of [f.labels, f.capacity, f.allocatable])
    for (const [k, v] of Object.entries(m)) n += k.length + v.length;
  n += (f.ready.reason?.length ?? 0) + (f.ready.message?.length ?? 0) + (f.ready.since?.length ?? 0);
  for (const t of f.taints) n += t.key.length + (t.value?.length ?? 0) + t.effect.length;
  return n;
}

describe('trimNode keeps a bounded amount of a hostile node', () => {
  it('distinct 1 MB label values do not grow the intern pool, and each kept node stays small', () => {
    const huge = 'v'.repeat(MB);
    const before = internedChars();
    let kept = 0;
    for (let i = 0; i < 200; i++) {
      // A distinct 1 MB value per node, per label the inventory reads (product, count, MIG, sharing…).
      const v = `${i}-${huge}`;
      const raw = rawNode({
        name: `n${i}`,
        ready: 'False',
        reason: v,
        message: v,
        since: v,
        labels: {
          'nvidia.com/gpu.product': v,
          'nvidia.com/gpu.count': v,
          'nvidia.com/gpu.sharing-strategy': v,
          'nvidia.com/mig-1g.5gb.count': v,
        },
        capacity: { 'nvidia.com/gpu': v },
        taints: [{ key: 'nvidia.com/gpu', value: v, effect: 'NoSchedule' }],
      });
      const f = trimNode(raw);
      expect(f).not.toBeNull();
      kept = Math.max(kept, charsOf(f as NodeFacts));
    }
    // A node's facts stay a few KB at most, not megabytes…
    expect(kept).toBeLessThan(4096);
    // …and the pool grew by short strings only, never by the huge ones.
    expect(internedChars() - before).toBeLessThan(200 * 16 * (MAX_INTERN_LENGTH + 1));
    expect(internedChars()).toBeLessThanOrEqual(MAX_POOL * MAX_INTERN_LENGTH);
  });

  it('the intern pool does not keep long strings (bounded by characters, not by count)', () => {
    const huge = 'w'.repeat(MB);
    const before = internedChars();
    for (let i = 0; i < 100; i++) expect(intern(`${i}${huge}`)).toHaveLength(MB + String(i).length);
    expect(internedChars()).toBe(before);
    expect(internedChars()).toBeLessThanOrEqual(MAX_POOL * MAX_INTERN_LENGTH);
  });

  it('a cut label value ends in an ellipsis so it cannot pass for a real one', () => {
    const f = trimNode(
      rawNode({ name: 'n', labels: { 'nvidia.com/gpu.product': `A100${'x'.repeat(100)}` } }),
    );
    const v = f?.labels['nvidia.com/gpu.product'] ?? '';
    expect(v).toHaveLength(64);
    expect(v.endsWith('…')).toBe(true);
  });

  it('caps the number of kept entries, taints and key lengths', () => {
    const labels: Record<string, string> = {};
    const capacity: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) {
      labels[`nvidia.com/mig-${i}g.${i}gb.count`] = '1';
      capacity[`nvidia.com/r${i}`] = '1';
    }
    labels[`nvidia.com/mig-${'p'.repeat(MB)}.count`] = '1';
    const taints = Array.from({ length: 5000 }, (_, i) => ({ key: `k${i}`, effect: 'NoSchedule' }));
    const f = trimNode(rawNode({ name: 'n', labels, capacity, taints })) as NodeFacts;
    expect(Object.keys(f.labels).length).toBeLessThanOrEqual(MAX_KEPT);
    expect(Object.keys(f.capacity).length).toBeLessThanOrEqual(MAX_KEPT);
    expect(f.taints.length).toBeLessThanOrEqual(MAX_TAINTS);
    expect(charsOf(f)).toBeLessThan(64 * 1024);
  });

  it('refuses a node whose name is longer than Kubernetes allows', () => {
    expect(trimNode(rawNode({ name: 'n'.repeat(254) }))).toBeNull();
    expect(trimNode(rawNode({ name: 'n'.repeat(253) }))?.name).toHaveLength(253);
  });

  it.each([
    ['an ESC sequence', 'gpu\u001b[2J1'],
    ['a newline', 'gpu1\nfake'],
    ['a bidi override', 'gpu\u202e1'],
    ['an upper-case letter', 'Gpu1'],
    ['a space', 'gpu 1'],
    ['a leading dash', '-gpu1'],
    ['a trailing dot', 'gpu1.'],
    ['an empty label', 'a..b'],
    ['an underscore', 'gpu_1'],
    ['a non-ASCII letter', 'gpü1'],
  ])('refuses a node whose name has %s (not a DNS-1123 subdomain)', (_what, name) => {
    expect(trimNode(rawNode({ name }))).toBeNull();
  });

  it.each(['a', '0', 'gpu-1', 'node-1.example.com', 'constructor', 'a-b.c-d.e'])(
    'accepts the DNS-1123 subdomain %s',
    (name) => {
      expect(trimNode(rawNode({ name }))?.name).toBe(name);
    },
  );
});

describe('the GPU health signals of other tools', () => {
  const cond = (type: string, status: string, reason?: string, message?: string) => ({
    type,
    status,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  });
  it.each([
    ['NVSentinel True', cond('GpuXidError', 'True', 'XidCritical', 'XID 79 on GPU 0'), true],
    ['NVSentinel False', cond('GpuXidError', 'False'), false],
    ['Node Problem Detector GPU check True', cond('GPUProblem', 'True', 'NvlinkDown'), true],
    ['EKS agent False', cond('AcceleratedHardwareReady', 'False', 'NvidiaXID79Error'), true],
    ['EKS agent True', cond('AcceleratedHardwareReady', 'True'), false],
    ['a pressure condition', cond('MemoryPressure', 'True'), false],
    ['Ready', cond('Ready', 'False'), false],
  ])('%s: kept %s', (_, c, kept) => {
    const facts = trimNode({ metadata: { name: 'n' }, status: { conditions: [c] } });
    expect(facts?.health.length).toBe(kept ? 1 : 0);
  });

  it('caps what it keeps: count, one-line words, no control characters', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      cond(`GpuWatch${i}`.replace(/\d+/, 'X'), 'True', 'R', `line one\nline two \u202e${'x'.repeat(500)}`),
    );
    const facts = trimNode({ metadata: { name: 'n' }, status: { conditions: many } });
    expect(facts?.health).toHaveLength(MAX_HEALTH);
    for (const h of facts?.health ?? []) {
      expect(h.message?.length ?? 0).toBeLessThanOrEqual(201);
      expect(h.message).not.toMatch(/[\n\u202e]/);
    }
  });
});

describe('trimNode shares what nodes of one kind have in common (bench row 3)', () => {
  const gpu = (name: string, product = 'NVIDIA-L40S', ready: 'True' | 'False' = 'True') =>
    trimNode(
      rawNode({
        name,
        ready,
        since: `2025-06-0${name.length % 9}T10:00:00Z`,
        labels: { 'nvidia.com/gpu.product': product, 'nvidia.com/gpu.count': '4' },
        capacity: { 'nvidia.com/gpu': '4' },
        taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
      }),
    ) as NodeFacts;

  it('same facts → the same objects; different facts → not', () => {
    const a = gpu('a');
    const b = gpu('bb');
    expect(b.labels).toBe(a.labels);
    expect(b.capacity).toBe(a.capacity);
    expect(b.allocatable).toBe(a.capacity);
    expect(b.taints).toBe(a.taints);
    expect(b.ready).toBe(a.ready);
    const c = gpu('c', 'NVIDIA-H100-80GB-HBM3');
    expect(c.labels).not.toBe(a.labels);
    expect(c.labels['nvidia.com/gpu.product']).toBe('NVIDIA-H100-80GB-HBM3');
    expect(a.labels['nvidia.com/gpu.product']).toBe('NVIDIA-L40S');
  });

  it('a Ready node keeps no since; a NotReady node keeps its own', () => {
    expect(gpu('a').ready).toEqual({
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      since: null,
    });
    const down1 = gpu('d', 'NVIDIA-L40S', 'False');
    const down2 = gpu('dd', 'NVIDIA-L40S', 'False');
    expect(down1.ready.since).toBe('2025-06-01T10:00:00Z');
    expect(down2.ready.since).toBe('2025-06-02T10:00:00Z');
    expect(down2.ready).not.toBe(down1.ready);
  });

  it('the shared objects are frozen: a mutation attempt throws', () => {
    const a = gpu('a');
    expect(() => {
      (a.labels as Record<string, string>)['nvidia.com/gpu.product'] = 'other';
    }).toThrow(TypeError);
    expect(() => {
      (a.capacity as Record<string, string>)['nvidia.com/gpu'] = '9';
    }).toThrow(TypeError);
    expect(() => {
      (a.ready as { status: string }).status = 'False';
    }).toThrow(TypeError);
    expect(() => {
      (a.taints[0] as { effect: string }).effect = 'NoExecute';
    }).toThrow(TypeError);
    expect(() => {
      (gpu('d', 'NVIDIA-L40S', 'False').ready as { since: string }).since = 'x';
    }).toThrow(TypeError);
    expect(gpu('b').labels['nvidia.com/gpu.product']).toBe('NVIDIA-L40S');
  });

  it('a taint with no value and one whose value is "-" are different lists', () => {
    const taint = (value?: string) =>
      (
        trimNode(
          rawNode({
            name: 'n',
            taints: [{ key: 'k', effect: 'NoSchedule', ...(value === undefined ? {} : { value }) }],
          }),
        ) as NodeFacts
      ).taints;
    expect(taint()).not.toBe(taint('-'));
    expect(taint('-')[0]?.value).toBe('-');
    expect(taint()[0]?.value).toBeNull();
  });
});
