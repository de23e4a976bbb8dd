/** The pure readers of a raw Node for the detail: conditions (problem or not), taints, system, GPU facts. */
import { describe, expect, it } from 'vitest';
import { CLUSTER_TEXT_MAX } from '../../common/cluster-text.ts';
import {
  isProblemCondition,
  MAX_CONDITIONS,
  readConditions,
  readGpuFacts,
  readSystem,
  readTaints,
} from './node-parts.ts';

const withConditions = (conditions: unknown) => ({ status: { conditions } });

describe('isProblemCondition', () => {
  it.each([
    ['Ready', 'True', false],
    ['Ready', 'False', true],
    ['Ready', 'Unknown', true],
    ['Ready', 'garbage', true],
    ['MemoryPressure', 'False', false],
    ['MemoryPressure', 'True', true],
    ['DiskPressure', 'True', true],
    ['PIDPressure', 'Unknown', false],
    ['NetworkUnavailable', 'True', true],
    ['KernelDeadlock', 'True', true],
    ['KernelDeadlock', 'False', false],
    ['ReadonlyFilesystem', 'True', true],
    ['FrequentKubeletRestart', 'True', true],
  ])('%s=%s is a problem: %s', (type, status, problem) => {
    expect(isProblemCondition(type, status)).toBe(problem);
  });
});

describe('readConditions', () => {
  it('keeps every condition with reason, message, since and heartbeat', () => {
    const out = readConditions(
      withConditions([
        {
          type: 'Ready',
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: '2026-12-01T07:00:00Z',
          lastTransitionTime: '2026-12-01T07:01:00Z',
        },
        { type: 'KernelDeadlock', status: 'True', reason: 'DockerHung', message: 'task docker:7 blocked' },
      ]),
    );
    expect(out).toEqual([
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        since: '2026-12-01T07:01:00Z',
        heartbeat: '2026-12-01T07:00:00Z',
        problem: true,
      },
      {
        type: 'KernelDeadlock',
        status: 'True',
        reason: 'DockerHung',
        message: 'task docker:7 blocked',
        since: null,
        heartbeat: null,
        problem: true,
      },
    ]);
  });

  it.each([
    ['not an object', 'x'],
    ['no status', {}],
    ['conditions not a list', { status: { conditions: { type: 'Ready' } } }],
  ])('gives [] for %s', (_what, node) => {
    expect(readConditions(node)).toEqual([]);
  });

  it('strips control characters and caps messages (the hostile message of transcript 13)', () => {
    const message = `GPU 0: \u001b[31mXid 79\u001b[0m fallen off the bus\u0007\nsecond line\ttab; DEL\u007f NUL\u0000 end${'x'.repeat(5000)}`;
    const [c] = readConditions(withConditions([{ type: 'Ready', status: 'False', message }]));
    expect(c?.message).toMatch(/^GPU 0: Xid 79 fallen off the bus second line tab; DEL NUL endx+…$/);
    expect(Array.from(c?.message ?? '').length).toBe(CLUSTER_TEXT_MAX);
  });

  it('drops conditions without a type, and keeps no more than the cap', () => {
    const many = Array.from({ length: MAX_CONDITIONS + 10 }, (_, i) => ({ type: `C${i}`, status: 'False' }));
    expect(readConditions(withConditions([{ status: 'True' }, ...many]))).toHaveLength(MAX_CONDITIONS);
  });

  it('never shows a time that is not one', () => {
    const [c] = readConditions(
      withConditions([{ type: 'Ready', status: 'True', lastTransitionTime: 'soon' }]),
    );
    expect(c?.since).toBeNull();
  });
});

describe('readTaints and readSystem', () => {
  it('reads taints, skipping malformed ones', () => {
    expect(
      readTaints({
        spec: {
          taints: [
            { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
            { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' },
            { key: 'no-effect' },
            7,
          ],
        },
      }),
    ).toEqual([
      { key: 'node.kubernetes.io/unreachable', value: null, effect: 'NoExecute' },
      { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' },
    ]);
  });

  it('reads nodeInfo; empty strings (a node the kubelet never reported) are null', () => {
    expect(
      readSystem({
        status: {
          nodeInfo: {
            kubeletVersion: 'v1.32.5',
            osImage: 'Ubuntu 24.04.1 LTS',
            kernelVersion: '6.8.0-45-generic',
            containerRuntimeVersion: 'containerd://1.7.22',
            architecture: '',
          },
        },
      }),
    ).toEqual({
      kubeletVersion: 'v1.32.5',
      osImage: 'Ubuntu 24.04.1 LTS',
      kernelVersion: '6.8.0-45-generic',
      containerRuntime: 'containerd://1.7.22',
      architecture: null,
    });
  });
});

describe('readGpuFacts', () => {
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  const node = (labels: Record<string, string>) => ({ metadata: { labels } });
  it.each([
    [
      'full GFD labels',
      {
        'nvidia.com/gpu.family': 'ampere',
        'nvidia.com/cuda.driver-version.full': '550.127.05',
        'nvidia.com/cuda.runtime-version.full': '12.4',
        'nvidia.com/mig.config': 'all-1g.10gb',
        'nvidia.com/mig.config.state': 'success',
        'nvidia.com/gfd.timestamp': String(now / 1000 - 90),
      },
      {
        family: 'ampere',
        driver: '550.127.05',
        cuda: '12.4',
        migConfig: 'all-1g.10gb',
        migState: 'success',
        gfdAgeSeconds: 90,
      },
    ],
    [
      'split version labels of an older GFD',
      {
        'nvidia.com/cuda.driver.major': '535',
        'nvidia.com/cuda.driver.minor': '104',
        'nvidia.com/cuda.driver.rev': '05',
        'nvidia.com/cuda.runtime.major': '12',
        'nvidia.com/cuda.runtime.minor': '2',
      },
      {
        family: null,
        driver: '535.104.05',
        cuda: '12.2',
        migConfig: null,
        migState: null,
        gfdAgeSeconds: null,
      },
    ],
    [
      'a timestamp in the future or not a number',
      { 'nvidia.com/gfd.timestamp': String(now / 1000 + 60) },
      { family: null, driver: null, cuda: null, migConfig: null, migState: null, gfdAgeSeconds: null },
    ],
    [
      'a label named like an Object.prototype key',
      { constructor: 'x', 'nvidia.com/gfd.timestamp': 'yesterday' },
      { family: null, driver: null, cuda: null, migConfig: null, migState: null, gfdAgeSeconds: null },
    ],
  ])('%s', (_what, labels, facts) => {
    expect(readGpuFacts(node(labels), now)).toEqual(facts);
  });
});
