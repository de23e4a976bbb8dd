/**
 * The why of a GPU node, table-tested: each third-party signal (NVSentinel, Node Problem Detector, the
 * EKS node monitoring agent), a cordon, the device plugin, labels, Ready and recent events, and the rank.
 */
import { describe, expect, it } from 'vitest';
import { readQuarantine } from '../main/diagnosis/node-parts.ts';
import { gpuCause, gpuWhy, type WhyInput, xidsIn } from './gpu-why.ts';
import type { GpuNodeEntry } from './inventory.ts';
import type { NodeConditionView, NodeEventView, NodeTaintView } from './node-detail.ts';

const NOW = Date.UTC(2026, 11, 1, 22, 0, 0);
const cond = (
  type: string,
  status: string,
  reason: string | null = null,
  message: string | null = null,
): NodeConditionView => ({
  type,
  status,
  reason,
  message,
  since: null,
  heartbeat: null,
  problem: type === 'Ready' ? status !== 'True' : status === 'True',
});
const READY = cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status');
const taint = (key: string, value: string | null = 'true', effect = 'NoSchedule'): NodeTaintView => ({
  key,
  value,
  effect,
});
const entry = (over: Partial<GpuNodeEntry> = {}): GpuNodeEntry => ({
  name: 'h100-1',
  ready: true,
  product: 'NVIDIA-H100-80GB-HBM3',
  count: 8,
  memory: 81_559,
  workload: 'container',
  capacity_gpus: 8,
  allocatable_gpus: 8,
  ...over,
});
const event = (
  reason: string,
  message: string,
  agoMs: number,
  type = 'Warning',
  count = 1,
): NodeEventView => ({
  type,
  reason,
  message,
  count,
  last: new Date(NOW - agoMs).toISOString(),
  source: 'kubelet',
});
const input = (over: Partial<WhyInput>): WhyInput => ({
  conditions: [READY],
  taints: [],
  unschedulable: false,
  quarantine: null,
  gpu: entry(),
  events: [],
  now: NOW,
  ...over,
});
const sources = (i: WhyInput) => gpuWhy(i).map((w) => w.source);

describe('each signal', () => {
  it.each([
    [
      'NVSentinel GPU health condition',
      input({
        conditions: [
          READY,
          cond(
            'GpuMemWatch',
            'True',
            'GpuMemWatchIsNotHealthy',
            '[DCGM_FR_FAULTY_MEMORY] GPU memory failure detected on GPU 0 - RecommendedAction: RESTART_VM',
          ),
        ],
      }),
      [
        {
          source: 'nvsentinel',
          text: 'NVSentinel: GpuMemWatch (GpuMemWatchIsNotHealthy): [DCGM_FR_FAULTY_MEMORY] GPU memory failure detected on GPU 0 - RecommendedAction: RESTART_VM',
          xids: [],
        },
      ],
    ],
    [
      'NVSentinel syslog XID condition, with its XID',
      input({
        conditions: [
          READY,
          cond(
            'SysLogsXIDError',
            'True',
            'SysLogsXIDErrorIsNotHealthy',
            'ErrorCode:79 PCI:0000:3b:00 XID 79 GPU has fallen off the bus',
          ),
        ],
      }),
      [
        {
          source: 'nvsentinel',
          text: 'NVSentinel: SysLogsXIDError (SysLogsXIDErrorIsNotHealthy): ErrorCode:79 PCI:0000:3b:00 XID 79 GPU has fallen off the bus',
          xids: [79],
        },
      ],
    ],
    [
      'a healthy NVSentinel condition (False) says nothing',
      input({
        conditions: [
          READY,
          cond('GpuThermalWatch', 'False', 'GpuThermalWatchIsHealthy', 'No Health Failures'),
        ],
      }),
      [],
    ],
    [
      'NVSentinel quarantine taint (the GPU Operator’s own nvidia.com/gpu taint is routine)',
      input({ taints: [taint('nvidia.com/gpu', 'present'), taint('nvidia.com/gpu-xid-error')] }),
      [
        {
          source: 'nvsentinel',
          text: 'NVSentinel quarantine taint nvidia.com/gpu-xid-error=true:NoSchedule',
          xids: [],
        },
      ],
    ],
    [
      'NVSentinel fault quarantine cordon, from its annotation',
      input({ unschedulable: true, quarantine: { checkName: 'GpuXidError', message: 'XID 48 on GPU 3' } }),
      [
        {
          source: 'nvsentinel',
          text: 'NVSentinel fault quarantine cordoned the node (GpuXidError: XID 48 on GPU 3)',
          xids: [48],
        },
      ],
    ],
    [
      'a Node Problem Detector GPU check',
      input({
        conditions: [
          READY,
          cond('GPUMissing', 'True', 'GPUCountMismatch', 'nvidia-smi sees 7 GPUs, expected 8'),
        ],
      }),
      [
        {
          source: 'node-problem-detector',
          text: 'Node Problem Detector: GPUMissing (GPUCountMismatch): nvidia-smi sees 7 GPUs, expected 8',
          xids: [],
        },
      ],
    ],
    [
      'a non-GPU problem condition is not a GPU signal',
      input({ conditions: [READY, cond('KernelDeadlock', 'True', 'DockerHung', 'task docker blocked')] }),
      [],
    ],
    [
      'the EKS node monitoring agent, with the XID of its reason',
      input({
        conditions: [
          READY,
          cond(
            'AcceleratedHardwareReady',
            'False',
            'NvidiaXID79Error',
            'NVRM: Xid (PCI:0000:10:1c): 79, GPU has fallen off the bus.',
          ),
        ],
      }),
      [
        {
          source: 'eks-node-monitoring',
          text: 'EKS node monitoring agent: AcceleratedHardwareReady (NvidiaXID79Error): NVRM: Xid (PCI:0000:10:1c): 79, GPU has fallen off the bus.',
          xids: [79],
        },
      ],
    ],
    [
      'AcceleratedHardwareReady True is healthy',
      input({ conditions: [READY, cond('AcceleratedHardwareReady', 'True', 'AcceleratedHardwareIsReady')] }),
      [],
    ],
    [
      'a cordon with the taint that says why',
      input({
        unschedulable: true,
        taints: [taint('node.kubernetes.io/unschedulable', null), taint('karpenter.sh/disrupted', null)],
      }),
      [{ source: 'cordon', text: 'Cordoned, with karpenter.sh/disrupted:NoSchedule', xids: [] }],
    ],
    [
      'a cordon without a reason says none is kept',
      input({ unschedulable: true, taints: [taint('node.kubernetes.io/unschedulable', null)] }),
      [
        {
          source: 'cordon',
          text: 'Cordoned (Kubernetes keeps no reason for a cordon; ask who ran kubectl cordon)',
          xids: [],
        },
      ],
    ],
    [
      'the device plugin withdrawing GPUs',
      input({ gpu: entry({ allocatable_gpus: 6 }) }),
      [
        {
          source: 'device-plugin',
          text: 'The device plugin withdrew 2 of 8 GPUs (allocatable 6 < capacity 8): it found them unhealthy',
          xids: [],
        },
      ],
    ],
    [
      'GPU labels gone, with what was last seen',
      input({
        gpu: entry({
          product: null,
          count: 0,
          last_seen: {
            product: 'NVIDIA-H100-80GB-HBM3',
            count: 8,
            memory: 81_559,
            at: '2026-12-01T20:00:00Z',
          } as GpuNodeEntry['last_seen'],
        }),
      }),
      [
        {
          source: 'labels',
          text: 'GPU labels are gone (last seen: NVIDIA-H100-80GB-HBM3 ×8): GPU Feature Discovery no longer labels the node',
          xids: [],
        },
      ],
    ],
    [
      'Ready False',
      input({
        conditions: [
          cond(
            'Ready',
            'False',
            'KubeletNotReady',
            'PLEG is not healthy: pleg was last seen active 3m0s ago',
          ),
        ],
      }),
      [{ source: 'ready', text: 'Ready False: NotReady (PLEG is not healthy)', xids: [] }],
    ],
    [
      'recent Warning events only, saying events expire',
      input({
        events: [
          event('NvidiaXid79', 'Xid 79 detected', 10 * 60_000, 'Warning', 3),
          event('Rebooted', 'rebooted', 2 * 3_600_000),
          event('Starting', 'kubelet', 60_000, 'Normal'),
        ],
      }),
      [
        {
          source: 'events',
          text: 'Warning NvidiaXid79 ×3 10 min ago: Xid 79 detected (Kubernetes keeps events for about an hour; older ones are gone)',
          xids: [79],
        },
      ],
    ],
  ])('%s', (_name, i, expected) => {
    expect(gpuWhy(i)).toEqual(expected);
  });
});

describe('the ranking', () => {
  it('puts third-party GPU signals before the cordon, the device plugin, labels, Ready and events', () => {
    const all = input({
      conditions: [
        cond('Ready', 'False', 'KubeletNotReady', 'container runtime is down'),
        cond('AcceleratedHardwareReady', 'False', 'NvidiaXID48Error', 'XID 48'),
        cond('GPUXIDErrors', 'True', 'XIDFound', 'Xid 94'),
        cond('GpuNvlinkWatch', 'True', 'NvlinkDown', 'link 3 down'),
      ],
      taints: [taint('example.com/maintenance')],
      unschedulable: true,
      gpu: entry({ allocatable_gpus: 0, product: null, last_seen: null }),
      events: [event('FailedMount', 'x', 60_000)],
    });
    expect(sources(all)).toEqual([
      'nvsentinel',
      'node-problem-detector',
      'eks-node-monitoring',
      'cordon',
      'device-plugin',
      'labels',
      'ready',
      'events',
    ]);
  });

  it('a quarantined node is not also reported as a plain cordon', () => {
    expect(sources(input({ unschedulable: true, quarantine: { checkName: null, message: null } }))).toEqual([
      'nvsentinel',
    ]);
  });

  it('a healthy GPU node has no why', () => {
    expect(gpuWhy(input({}))).toEqual([]);
  });
});

describe('readQuarantine', () => {
  it.each([
    ['absent', {}, null],
    [
      'one event as JSON',
      { quarantineHealthEvent: '{"checkName":"GpuXidError","message":"XID 79"}' },
      { checkName: 'GpuXidError', message: 'XID 79' },
    ],
    [
      'a list of events',
      { quarantineHealthEvent: '[{"checkName":"SysLogsXIDError","message":"XID 48"}]' },
      { checkName: 'SysLogsXIDError', message: 'XID 48' },
    ],
    ['not JSON: still quarantined', { quarantineHealthEvent: 'yes' }, { checkName: null, message: null }],
  ])('%s', (_name, annotations, expected) => {
    expect(readQuarantine({ metadata: { annotations } })).toEqual(expected);
  });
});

describe('xidsIn', () => {
  it.each([
    ['NvidiaXID79Error', [79]],
    ['NVRM: Xid (PCI:0000:10:1c): 79, pid=1234, GPU has fallen off the bus', [79]],
    ['XID 48 and xid=94 and Xid#13', [13, 48, 94]],
    ['no codes', []],
  ])('%s', (text, expected) => {
    expect(xidsIn(text)).toEqual(expected);
  });
});

describe('the cause an alert names first (gpuCause: the top line of gpuWhy, when another tool made it)', () => {
  const health = (
    type: string,
    status: string,
    reason: string | null = null,
    message: string | null = null,
  ) => ({
    type,
    status,
    reason,
    message,
  });
  it.each([
    [
      'NVSentinel condition',
      [health('GpuXidError', 'True', 'XidCritical', 'XID 79 on GPU 0')],
      [],
      'NVSentinel: GpuXidError (XidCritical): XID 79 on GPU 0',
    ],
    [
      'Node Problem Detector GPU check',
      [health('GPUProblem', 'True', 'NvlinkDown', 'NVLink 2 is down')],
      [],
      'Node Problem Detector: GPUProblem (NvlinkDown): NVLink 2 is down',
    ],
    [
      'EKS node monitoring agent',
      [health('AcceleratedHardwareReady', 'False', 'NvidiaXID79Error')],
      [],
      'EKS node monitoring agent: AcceleratedHardwareReady (NvidiaXID79Error)',
    ],
    [
      'NVSentinel quarantine taint',
      [],
      [taint('nvidia.com/gpu-xid-error', '79')],
      'NVSentinel quarantine taint nvidia.com/gpu-xid-error=79:NoSchedule',
    ],
    [
      'NVSentinel ranks over Node Problem Detector and the EKS agent, whatever the order on the node',
      [
        health('AcceleratedHardwareReady', 'False', 'NvidiaXID79Error'),
        health('GPUProblem', 'True', 'NvlinkDown'),
        health('GpuXidError', 'True', 'XidCritical'),
      ],
      [],
      'NVSentinel: GpuXidError (XidCritical)',
    ],
    [
      'Node Problem Detector ranks over the EKS agent',
      [
        health('AcceleratedHardwareReady', 'False', 'NvidiaXID79Error'),
        health('GPUProblem', 'True', 'NvlinkDown'),
      ],
      [],
      'Node Problem Detector: GPUProblem (NvlinkDown)',
    ],
    ['no signal: the Ready words say it', [], [], null],
    ['the GPU Operator’s routine taint is no cause', [], [taint('nvidia.com/gpu', 'present')], null],
  ])('%s', (_, conditions, taints, want) => {
    expect(gpuCause({ conditions, taints, unschedulable: false })).toBe(want);
  });

  it('a cordon alone names no cause (the Ready reason stays first)', () => {
    expect(gpuCause({ conditions: [], taints: [taint('maintenance')], unschedulable: true })).toBeNull();
  });
});
