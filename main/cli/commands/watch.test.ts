/** `watch -o json` connection lines keep their English shape: the catalog key is the window's. */
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../common/connection.ts';
import type { FleetSnapshot } from '../../../common/fleet.ts';
import { KubeError } from '../../kube/errors.ts';
import { COMMAND_HELP } from '../help.ts';
import { eventLine, humanPrinter } from './watch.ts';

describe('watch -o json: connection lines', () => {
  it('print the English sentence and no catalog key', () => {
    const err = new KubeError('unreachable', { key: 'kubeError.refused', vars: { host: 'h:6443' } });
    const state = {
      phase: 'unreachable' as const,
      message: err.message,
      words: err.words ?? undefined,
      since: '2026-12-01T10:00:00.000Z',
      lastLiveAt: null,
      attempt: 3,
      retryAt: null,
    };
    const line = eventLine({ type: 'connection', context: 'lab', state });
    expect(JSON.parse(line ?? '')).toEqual({
      type: 'connection',
      context: 'lab',
      phase: 'unreachable',
      message: 'h:6443 refused the connection; the API server may be down.',
      since: '2026-12-01T10:00:00.000Z',
      lastLiveAt: null,
      attempt: 3,
      retryAt: null,
    });
  });
});

describe('watch: human lines', () => {
  const state = (
    phase: ConnectionState['phase'],
    message: string | null,
    attempt: number,
  ): ConnectionState => ({
    phase,
    message,
    since: '2026-12-01T10:00:00.000Z',
    lastLiveAt: null,
    attempt,
    retryAt: `2026-12-01T10:00:0${attempt}.000Z`,
  });

  it('print a connection line per change of phase or sentence, not per retry', () => {
    const print = humanPrinter();
    const refused = 'h:6443 refused the connection; the API server may be down.';
    const events: ConnectionState[] = [
      state('connecting', null, 0),
      state('connecting', null, 0),
      state('unreachable', refused, 3),
      state('unreachable', refused, 4),
      state('unreachable', refused, 5),
      state('unreachable', 'h:6443 did not answer in time.', 6),
      state('live', null, 0),
    ];
    const lines = events
      .map((s) => print({ type: 'connection', context: 'lab', state: s }))
      .filter((l): l is string => l !== null)
      .map((l) => l.slice(9).trimEnd());
    expect(lines).toEqual([
      'lab: connecting',
      `lab: unreachable — ${refused}`,
      'lab: unreachable — h:6443 did not answer in time.',
      'lab: live',
    ]);
  });

  it('name the contexts watched once because they reach the same cluster, once', () => {
    const print = humanPrinter();
    const snapshot = (sameCluster: string[] | undefined) => ({
      type: 'snapshot' as const,
      snapshot: {
        contexts: [
          { context: 'lab-admin', ...(sameCluster ? { sameCluster } : {}) },
          { context: 'other' },
        ] as unknown as FleetSnapshot['contexts'],
        focused: null,
        alertsPausedUntil: null,
        health: 'all-ready' as const,
        generatedAt: '2026-12-01T10:00:00.000Z',
      },
    });
    expect(print(snapshot(undefined))).toBeNull();
    expect(print(snapshot(['lab-readonly', 'lab-ci']))?.slice(9)).toBe(
      'lab-admin: the same cluster as lab-readonly, lab-ci (watched once)\n',
    );
    expect(print(snapshot(['lab-readonly', 'lab-ci']))).toBeNull();
  });

  it('count GPUs and GPU nodes in the singular when there is one', () => {
    const inventory = {
      observed_at: '2026-12-01T10:00:00Z',
      total_gpu_nodes: 1,
      ready_gpu_nodes: 1,
      total_gpus: 1,
      nodes: [],
    };
    const line = humanPrinter()({
      type: 'inventory',
      context: 'lab',
      inventory,
      stale: false,
      source: 'nodes',
    });
    expect(line?.split('\n')[0]?.slice(9)).toBe('lab: 1/1 ready GPU node, 1 GPU');
  });
});

describe('watch -o json: telemetry and node-events lines', () => {
  it('print a reading with its time as ISO and its GPUs as read', () => {
    const gpu = {
      index: 0,
      uuid: 'GPU-1',
      model: 'NVIDIA A100',
      util: 40,
      temp: 61,
      power: 250.5,
      fbUsed: 1000,
      fbFree: 39000,
      xid: null,
      xidCounts: {},
    };
    const reading = { context: 'lab', node: 'nuc1', at: Date.UTC(2026, 11, 1, 2), gpus: [gpu] };
    expect(JSON.parse(eventLine({ type: 'telemetry', reading }) ?? '')).toEqual({
      type: 'telemetry',
      context: 'lab',
      node: 'nuc1',
      at: '2026-12-01T02:00:00.000Z',
      gpus: [gpu],
    });
    const failed = eventLine({ type: 'telemetry', reading: { ...reading, gpus: null } });
    expect(JSON.parse(failed ?? '')).toMatchObject({ type: 'telemetry', gpus: null });
  });

  it('print the events about one GPU node', () => {
    const event = {
      uid: 'u-1',
      first: '2026-12-01T02:00:00Z',
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node nuc1 status is now: NodeNotReady',
      count: 3,
      last: '2026-12-01T02:10:00Z',
      source: 'node-controller',
    };
    const line = eventLine({ type: 'node-events', context: 'lab', node: 'nuc1', events: [event] });
    expect(JSON.parse(line ?? '')).toEqual({
      type: 'node-events',
      context: 'lab',
      node: 'nuc1',
      events: [event],
    });
  });
});

describe('watch --help', () => {
  it('names every type of line -o json prints', () => {
    const help = COMMAND_HELP.get('watch') ?? '';
    for (const type of [
      'inventory',
      'connection',
      'alert',
      'telemetry',
      'node-events',
      'ignored',
      'write',
      'forward',
    ])
      expect(help).toContain(`{"type":"${type}"`);
  });
});
