/** Node → entry derivation, table-driven over MIG, sharing, passthrough, withdrawn devices, lost labels and malformed values. */
import { describe, expect, it } from 'vitest';
import type { GpuNodeEntry, LastSeenLabels } from '../../common/inventory.ts';
import { gfdLabels, type RawNodeOptions, rawNode } from '../../test/fixtures/nodes.ts';
import { deriveEntry } from './derive.ts';
import { trimNode } from './node-facts.ts';

interface Case {
  name: string;
  node: Omit<RawNodeOptions, 'name'>;
  lastSeen?: LastSeenLabels;
  expect: Partial<GpuNodeEntry>;
  /** Every problem, in order, each matched by one pattern; [] when the entry must have none. */
  problems: (string | RegExp)[];
}

const A100 = 'NVIDIA-A100-SXM4-40GB';
const RTX = 'NVIDIA-GeForce-RTX-4070-Laptop-GPU';

const cases: Case[] = [
  {
    name: 'a plain ready container node',
    node: { labels: gfdLabels('Tesla-T4', 1, 15360), capacity: { 'nvidia.com/gpu': '1' } },
    expect: {
      ready: true,
      product: 'Tesla-T4',
      count: 1,
      memory: 15360,
      workload: 'container',
      readiness: 'True',
      not_ready_reason: null,
      not_ready_since: null,
      cordoned: false,
      capacity_gpus: 1,
      allocatable_gpus: 1,
      resources: [{ name: 'nvidia.com/gpu', capacity: 1, allocatable: 1 }],
      mig: null,
      sharing: null,
      last_seen: null,
    },
    problems: [],
  },
  {
    name: 'MIG mixed: profiles from labels, slots summed with the MIG resources',
    node: {
      labels: {
        ...gfdLabels(A100, 1, 40960),
        'nvidia.com/mig.strategy': 'mixed',
        'nvidia.com/mig-2g.10gb.count': '1',
        'nvidia.com/mig-1g.5gb.count': '2',
      },
      capacity: { 'nvidia.com/gpu': '0', 'nvidia.com/mig-1g.5gb': '2', 'nvidia.com/mig-2g.10gb': '1' },
    },
    expect: {
      mig: {
        strategy: 'mixed',
        profiles: [
          { profile: '1g.5gb', count: 2 },
          { profile: '2g.10gb', count: 1 },
        ],
      },
      capacity_gpus: 3,
      allocatable_gpus: 3,
    },
    problems: [],
  },
  {
    name: 'MIG single: the profile is named in the product, nvidia.com/gpu counts instances',
    node: {
      labels: { ...gfdLabels(`${A100}-MIG-1g.5gb`, 7, 4864), 'nvidia.com/mig.strategy': 'single' },
      capacity: { 'nvidia.com/gpu': '7' },
    },
    expect: {
      count: 7,
      mig: { strategy: 'single', profiles: [{ profile: '1g.5gb', count: 7 }] },
      capacity_gpus: 7,
    },
    problems: [],
  },
  {
    name: 'MIG single with time-slicing: -SHARED is not part of the profile',
    node: {
      labels: {
        ...gfdLabels(`${A100}-MIG-1g.5gb-SHARED`, 7, 4864),
        'nvidia.com/mig.strategy': 'single',
        'nvidia.com/gpu.replicas': '2',
        'nvidia.com/gpu.sharing-strategy': 'time-slicing',
      },
      capacity: { 'nvidia.com/gpu': '14' },
    },
    expect: {
      mig: { strategy: 'single', profiles: [{ profile: '1g.5gb', count: 7 }] },
      sharing: { strategy: 'time-slicing', replicas: 2 },
      capacity_gpus: 14,
    },
    problems: [],
  },
  {
    name: 'MIG single, profile with media extensions',
    node: {
      labels: {
        ...gfdLabels('NVIDIA-H100-80GB-HBM3-MIG-1g.10gb+me', 1, 9856),
        'nvidia.com/mig.strategy': 'single',
      },
      capacity: { 'nvidia.com/gpu': '1' },
    },
    expect: { mig: { strategy: 'single', profiles: [{ profile: '1g.10gb+me', count: 1 }] } },
    problems: [],
  },
  {
    name: 'a labelled GPU node with no GPU resource but RDMA NICs: the NICs are not blamed as renamed GPUs',
    node: {
      labels: gfdLabels('Tesla-T4', 1, 15360),
      capacity: { 'nvidia.com/rdma_shared_device_a': '63' },
    },
    expect: { capacity_gpus: null },
    problems: [/^no nvidia.com\/gpu resource is advertised .*: the device plugin may not be running$/],
  },
  {
    name: 'MIG label and resource names disagree: both shown, labels win in profiles',
    node: {
      labels: {
        ...gfdLabels('NVIDIA-H100-80GB-HBM3', 1, 81559),
        'nvidia.com/mig.strategy': 'mixed',
        'nvidia.com/mig-1g.10gb.count': '2',
      },
      capacity: { 'nvidia.com/mig-1g.12gb': '2' },
    },
    expect: {
      mig: { strategy: 'mixed', profiles: [{ profile: '1g.10gb', count: 2 }] },
      resources: [{ name: 'nvidia.com/mig-1g.12gb', capacity: 2, allocatable: 2 }],
      capacity_gpus: 2,
    },
    problems: [
      'MIG labels and resources disagree: labels say 1g.10gb ×2, the node advertises nvidia.com/mig-* 1g.12gb ×2',
    ],
  },
  {
    name: 'MIG mixed labels with no MIG resource at all',
    node: {
      labels: { 'nvidia.com/mig.strategy': 'mixed', 'nvidia.com/mig-3g.20gb.count': '2' },
      capacity: { 'nvidia.com/gpu': '0' },
    },
    expect: { mig: { strategy: 'mixed', profiles: [{ profile: '3g.20gb', count: 2 }] }, capacity_gpus: 0 },
    problems: [
      'MIG labels and resources disagree: labels say 3g.20gb ×2, the node advertises no nvidia.com/mig-* resource',
    ],
  },
  {
    name: 'MIG resources without any MIG label',
    node: { capacity: { 'nvidia.com/mig-1g.5gb': '7' } },
    expect: { mig: { strategy: null, profiles: [{ profile: '1g.5gb', count: 7 }] }, capacity_gpus: 7 },
    problems: [],
  },
  {
    name: 'time-slicing: -SHARED product, replicas and strategy labels, nvidia.com/gpu multiplied',
    node: {
      labels: {
        ...gfdLabels(`${RTX}-SHARED`, 1, 8188),
        'nvidia.com/gpu.replicas': '4',
        'nvidia.com/gpu.sharing-strategy': 'time-slicing',
      },
      capacity: { 'nvidia.com/gpu': '4' },
    },
    expect: { count: 1, sharing: { strategy: 'time-slicing', replicas: 4 }, capacity_gpus: 4 },
    problems: [],
  },
  {
    name: 'time-slicing renamed: nvidia.com/gpu.shared only',
    node: { labels: gfdLabels(`${RTX}-SHARED`, 1, 8188), capacity: { 'nvidia.com/gpu.shared': '4' } },
    expect: { sharing: { strategy: null, replicas: null }, capacity_gpus: 4, allocatable_gpus: 4 },
    problems: [],
  },
  {
    name: "GFD's unshared defaults (replicas=1, strategy none) are not sharing",
    node: {
      labels: {
        ...gfdLabels('Tesla-T4', 1, 15360),
        'nvidia.com/gpu.replicas': '1',
        'nvidia.com/gpu.sharing-strategy': 'none',
        'nvidia.com/mig.strategy': 'none',
      },
      capacity: { 'nvidia.com/gpu': '1' },
    },
    expect: { sharing: null, mig: null },
    problems: [],
  },
  {
    name: 'passthrough: nvidia.com/gpu 0 under vm-passthrough, the device under its PCI name',
    node: {
      labels: gfdLabels(RTX, 1, 8188, 'vm-passthrough'),
      capacity: { 'nvidia.com/gpu': '0', 'nvidia.com/AD106M_GEFORCE_RTX_4070': '1' },
    },
    expect: { count: 1, workload: 'vm-passthrough', capacity_gpus: 0, allocatable_gpus: 0 },
    problems: [
      `nvidia.com/gpu capacity is 0 although the node is labelled ${RTX}: expected with ` +
        'nvidia.com/gpu.workload.config=vm-passthrough; the node advertises nvidia.com/AD106M_GEFORCE_RTX_4070',
    ],
  },
  {
    name: 'a renamed resource on a container node',
    node: { labels: gfdLabels('NVIDIA-A10', 1, 23028), capacity: { 'nvidia.com/GA102GL_A10': '1' } },
    expect: { capacity_gpus: null, allocatable_gpus: null },
    problems: [
      'no nvidia.com/gpu resource is advertised although the node is labelled NVIDIA-A10: the GPUs may be ' +
        'passed through or renamed; the node advertises nvidia.com/GA102GL_A10',
    ],
  },
  {
    name: 'a product label with no resource and no other hint',
    node: { labels: gfdLabels('Tesla-T4', 1, 15360) },
    expect: { capacity_gpus: null, resources: [] },
    problems: [/^no nvidia.com\/gpu resource is advertised .*: the device plugin may not be running$/],
  },
  {
    name: 'allocatable below capacity',
    node: {
      labels: gfdLabels('NVIDIA-H100-80GB-HBM3', 8, 81559),
      capacity: { 'nvidia.com/gpu': '8' },
      allocatable: { 'nvidia.com/gpu': '6' },
    },
    expect: { capacity_gpus: 8, allocatable_gpus: 6 },
    problems: ['2 of 8 nvidia.com/gpu withdrawn by the device plugin'],
  },
  {
    name: 'capacity 16, allocatable 0 (unhealthy GPUs)',
    node: { capacity: { 'nvidia.com/gpu': '16' }, allocatable: { 'nvidia.com/gpu': '0' } },
    expect: { capacity_gpus: 16, allocatable_gpus: 0 },
    problems: ['16 of 16 nvidia.com/gpu withdrawn by the device plugin'],
  },
  {
    name: 'labels vanished on NotReady: last seen kept, readiness details shown',
    node: {
      ready: 'Unknown',
      since: '2025-06-01T08:30:00Z',
      labels: { 'nvidia.com/gpu.workload.config': 'vm-passthrough', 'nvidia.com/gpu.present': 'true' },
    },
    lastSeen: { product: RTX, count: 1, memory: 8188 },
    expect: {
      ready: false,
      product: null,
      count: 0,
      memory: null,
      readiness: 'Unknown',
      not_ready_reason: 'NodeStatusUnknown',
      not_ready_since: '2025-06-01T08:30:00Z',
      last_seen: { product: RTX, count: 1, memory: 8188 },
    },
    problems: [],
  },
  {
    name: 'last seen is not shown while the node is labelled',
    node: { ready: 'False', labels: gfdLabels(RTX, 1, 8188), capacity: { 'nvidia.com/gpu': '1' } },
    lastSeen: { product: 'Tesla-T4', count: 2, memory: 15360 },
    expect: { readiness: 'False', not_ready_reason: 'KubeletNotReady', last_seen: null },
    problems: [],
  },
  {
    name: 'a node with no Ready condition',
    node: { ready: null, labels: { 'nvidia.com/gpu.present': 'true' } },
    expect: { ready: false, readiness: 'Unknown', not_ready_reason: null, not_ready_since: null },
    problems: [],
  },
  {
    name: 'a cordoned node',
    node: { unschedulable: true, capacity: { 'nvidia.com/gpu': '1' } },
    expect: { cordoned: true },
    problems: [],
  },
  {
    name: 'an unparseable resource quantity',
    node: { capacity: { 'nvidia.com/gpu': '1.5' }, allocatable: { 'nvidia.com/gpu': '1' } },
    expect: { resources: [{ name: 'nvidia.com/gpu', capacity: 0, allocatable: 1 }] },
    problems: [
      'nvidia.com/gpu capacity "1.5" is not a whole number; counted as 0',
      'nvidia.com/gpu allocatable 1 is above capacity 0',
    ],
  },
];

const malformed: [string, string][] = [
  ['abc', 'is not a whole number'],
  ['-1', 'is negative'],
  ['1e12', 'is not a whole number'],
  ['1000000000', 'is implausibly large (more than 1024)'],
  ['99999999999999999999999', 'is implausibly large (more than 1024)'],
  ['', 'is empty'],
];
for (const [value, why] of malformed) {
  cases.push({
    name: `malformed gpu.count=${JSON.stringify(value)}`,
    node: {
      labels: { 'nvidia.com/gpu.product': 'Tesla-T4', 'nvidia.com/gpu.count': value },
      capacity: { 'nvidia.com/gpu': '1' },
    },
    expect: { count: 0, product: 'Tesla-T4' },
    problems: [`label nvidia.com/gpu.count=${JSON.stringify(value)} ${why}; counted as 0 GPUs`],
  });
}
cases.push(
  {
    name: 'malformed memory, replicas, MIG count and an empty product',
    node: {
      labels: {
        'nvidia.com/gpu.product': ' ',
        'nvidia.com/gpu.count': '2',
        'nvidia.com/gpu.memory': 'lots',
        'nvidia.com/gpu.replicas': 'x',
        'nvidia.com/mig-1g.5gb.count': '-3',
      },
      capacity: { 'nvidia.com/gpu': '2' },
    },
    expect: {
      product: null,
      count: 2,
      memory: null,
      mig: { strategy: null, profiles: [{ profile: '1g.5gb', count: 0 }] },
    },
    problems: [
      'label nvidia.com/gpu.product is empty; shown as unlabeled',
      'label nvidia.com/gpu.memory="lots" is not a whole number; memory shown as unknown',
      'label nvidia.com/mig-1g.5gb.count="-3" is negative; profile counted as 0',
      'label nvidia.com/gpu.replicas="x" is not a whole number; replicas shown as unknown',
    ],
  },
  {
    name: 'an absurdly long label value is quoted short',
    node: { labels: { 'nvidia.com/gpu.memory': 'm'.repeat(500) } },
    expect: { memory: null },
    problems: [
      `label nvidia.com/gpu.memory="${'m'.repeat(63)}…" is not a whole number; memory shown as unknown`,
    ],
  },
);

describe('deriveEntry', () => {
  it.each(cases)('$name', (c) => {
    const facts = trimNode(rawNode({ name: 'gpu1', ...c.node }));
    expect(facts).not.toBeNull();
    if (facts === null) return;
    const entry = deriveEntry(facts, c.lastSeen ?? null);
    expect(entry.name).toBe('gpu1');
    expect(entry).toMatchObject(c.expect);
    expect(entry.problems).toHaveLength(c.problems.length);
    c.problems.forEach((p, i) => {
      expect(entry.problems?.[i]).toMatch(p instanceof RegExp ? p : new RegExp(`^${escapeRegExp(p)}$`));
    });
  });

  it('never throws and always yields integers on hostile values', () => {
    const hostile = [
      '',
      ' ',
      'NaN',
      'Infinity',
      '0x10',
      '1_000',
      '٣',
      '\u0000',
      '9'.repeat(400),
      '1e308',
      '-0',
    ];
    for (const v of hostile) {
      const labels = Object.fromEntries(
        ['gpu.count', 'gpu.memory', 'gpu.replicas', 'mig-1g.5gb.count'].map((k) => [`nvidia.com/${k}`, v]),
      );
      const facts = trimNode(rawNode({ name: 'h', labels, capacity: { 'nvidia.com/gpu': v } }));
      if (facts === null) throw new Error('fixture did not trim');
      const e = deriveEntry(facts, null);
      expect(Number.isSafeInteger(e.count) && e.count >= 0).toBe(true);
      expect(e.resources?.every((r) => Number.isSafeInteger(r.capacity))).toBe(true);
    }
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('deriveEntry shares the parts nodes of one kind have in common (bench row 3)', () => {
  const entryOf = (name: string, o: Partial<RawNodeOptions> = {}) => {
    const facts = trimNode(rawNode({ name, ...o }));
    if (facts === null) throw new Error('fixture did not trim');
    return deriveEntry(facts, null);
  };
  const mig = {
    labels: {
      ...gfdLabels(A100, 1, 40960),
      'nvidia.com/mig.strategy': 'mixed',
      'nvidia.com/mig-1g.5gb.count': '4',
    },
    capacity: { 'nvidia.com/mig-1g.5gb': '4' },
  };
  const shared = {
    labels: { ...gfdLabels(RTX, 1, 8188), 'nvidia.com/gpu.replicas': '4' },
    capacity: { 'nvidia.com/gpu.shared': '4' },
  };

  it('same resources, MIG and sharing facts → the same objects; different → not', () => {
    const a = entryOf('a', { capacity: { 'nvidia.com/gpu': '8' } });
    const b = entryOf('b', { capacity: { 'nvidia.com/gpu': '8' } });
    expect(b.resources).toBe(a.resources);
    const c = entryOf('c', { capacity: { 'nvidia.com/gpu': '8' }, allocatable: { 'nvidia.com/gpu': '6' } });
    expect(c.resources).not.toBe(a.resources);
    expect(c.resources).toEqual([{ name: 'nvidia.com/gpu', capacity: 8, allocatable: 6 }]);
    expect(entryOf('m2', mig).mig).toBe(entryOf('m1', mig).mig);
    expect(entryOf('s2', shared).sharing).toBe(entryOf('s1', shared).sharing);
    const other = { ...shared, labels: { ...shared.labels, 'nvidia.com/gpu.replicas': '2' } };
    expect(entryOf('s3', other).sharing).not.toBe(entryOf('s1', shared).sharing);
  });

  it('the shared parts are frozen: a mutation attempt throws', () => {
    const a = entryOf('a', { capacity: { 'nvidia.com/gpu': '8' } });
    const resources = a.resources ?? [];
    expect(() => resources.push({ name: 'x', capacity: 1, allocatable: 1 })).toThrow(TypeError);
    expect(() => {
      (resources[0] as { capacity: number }).capacity = 1;
    }).toThrow(TypeError);
    const m = entryOf('m', mig).mig;
    expect(() => m?.profiles.push({ profile: '7g.40gb', count: 1 })).toThrow(TypeError);
    expect(entryOf('b', { capacity: { 'nvidia.com/gpu': '8' } }).resources?.[0]?.capacity).toBe(8);
  });
});
