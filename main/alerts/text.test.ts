/** A ready drop names each node with why it is down: in full for the log, fitted for the notification. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { type Alert, NOTIFICATION_BODY_MAX } from '../../common/alerts.ts';
import { shownAlertText } from '../../common/i18n/alert-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { evaluate, tick } from './policy.ts';
import { NO_SNOOZE } from './snooze.ts';
import { dropText, makeAlert } from './text.ts';
import { INITIAL_POLICY_STATE } from './types.ts';

const entry = (name: string, down?: Partial<GpuNodeEntry>): GpuNodeEntry => ({
  name,
  ready: down === undefined,
  product: 'NVIDIA-GeForce-RTX-4070',
  count: 1,
  memory: 12282,
  workload: 'container',
  readiness: down === undefined ? 'True' : 'False',
  ...down,
});
const inventory = (nodes: GpuNodeEntry[]): GpuInventoryStatus => ({
  observed_at: '2026-12-01T10:00:00Z',
  total_gpu_nodes: nodes.length,
  ready_gpu_nodes: nodes.filter((n) => n.ready).length,
  total_gpus: nodes.length,
  nodes,
});
const T0 = Date.UTC(2026, 11, 1, 10, 0, 0);
const rules = { ...DEFAULT_ALERT_RULES, holdDownMs: 0 };

describe('the ready-drop alert', () => {
  it("names each node with its reason, in the engine's own words, and the down node first", () => {
    const before = inventory([entry('nuc2'), entry('omen'), entry('gone'), entry('cp')]);
    const after = inventory([
      entry('nuc2', {
        readiness: 'False',
        not_ready_reason: 'KubeletNotReady',
        not_ready_message: 'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s',
      }),
      entry('omen', {
        readiness: 'Unknown',
        not_ready_reason: 'NodeStatusUnknown',
        not_ready_message: 'Kubelet stopped posting node status.',
      }),
      entry('cp'),
    ]);
    const first = evaluate(
      INITIAL_POLICY_STATE,
      { at: T0, context: 'home-lab', reachable: true, inventory: before },
      rules,
      NO_SNOOZE,
    );
    const second = evaluate(
      first.state,
      { at: T0 + 1000, context: 'home-lab', reachable: true, inventory: after },
      rules,
      NO_SNOOZE,
    );
    const alerts = [...second.alerts, ...tick(second.state, T0 + 2000, rules, NO_SNOOZE).alerts];
    expect(alerts).toHaveLength(1);
    const [a] = alerts;
    expect(a?.title).toBe('home-lab: 3 GPU nodes down');
    expect(a?.body).toBe(
      'nuc2: NotReady (PLEG is not healthy); omen: kubelet stopped posting node status; gone: left the cluster. Ready GPU nodes 4 → 1.',
    );
    expect(a?.reasons).toEqual([
      { node: 'nuc2', reason: 'NotReady (PLEG is not healthy)' },
      { node: 'omen', reason: 'kubelet stopped posting node status' },
      { node: 'gone', reason: 'left the cluster' },
    ]);
    expect(a?.nodes[0]).toBe('nuc2');
    expect(a?.short).toBeUndefined();
  });

  it('words the reasons in the user’s language from their facts: ours translated, the kubelet’s kept', () => {
    const before = inventory([entry('nuc2'), entry('omen'), entry('gone')]);
    const after = inventory([
      entry('nuc2', {
        readiness: 'False',
        not_ready_reason: 'KubeletNotReady',
        not_ready_message: 'PLEG is not healthy: pleg was last seen active 3m0.5s ago',
      }),
      entry('omen', { readiness: 'Unknown', not_ready_reason: 'NodeStatusUnknown', not_ready_message: null }),
    ]);
    const first = evaluate(
      INITIAL_POLICY_STATE,
      { at: T0, context: 'lab', reachable: true, inventory: before },
      rules,
      NO_SNOOZE,
    );
    const second = evaluate(
      first.state,
      { at: T0 + 1000, context: 'lab', reachable: true, inventory: after },
      rules,
      NO_SNOOZE,
    );
    const [a] = [...second.alerts, ...tick(second.state, T0 + 2000, rules, NO_SNOOZE).alerts];
    expect(a?.words).toEqual({
      kind: 'ready-drop',
      left: ['gone'],
      why: [
        { code: 'notReady', status: null, detail: 'PLEG is not healthy' },
        { code: 'kubeletStopped' },
        null,
      ],
    });
    expect(shownAlertText(a as Alert, translator('ko')).body).toBe(
      'nuc2: NotReady (PLEG is not healthy); omen: kubelet이 노드 상태 보고를 중단함; gone: 클러스터에서 제거됨. Ready GPU 노드 3 → 0.',
    );
    expect(shownAlertText(a as Alert, translator('zh-CN')).body).toContain(
      'nuc2：NotReady（PLEG is not healthy）',
    );
  });

  it('fits the notification text in NOTIFICATION_BODY_MAX with "+N more", the log keeps all', () => {
    const down = Array.from({ length: 12 }, (_, i) => ({
      node: `gpu-node-${i}`,
      reason: 'kubelet stopped posting node status',
    }));
    const t = dropText('big-lab', down, 12, 0);
    expect(t.short.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
    expect(t.short).toMatch(
      /^gpu-node-0: kubelet stopped posting node status; .*; \+\d+ more\. Ready GPU nodes 12 → 0\.$/,
    );
    for (const d of down) expect(t.body).toContain(`${d.node}: ${d.reason}`);
  });

  it('a single node with an endless reason still fits, and still names the node', () => {
    const t = dropText('lab', [{ node: 'omen', reason: 'x'.repeat(500) }], 1, 0);
    expect(t.short.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
    expect(t.short.startsWith('omen: xxx')).toBe(true);
  });

  it('fits a drop of thousands of nodes by reading each node a bounded number of times (not n² work)', () => {
    const n = 4000;
    let reads = 0;
    const down = Array.from({ length: n }, (_, i) => ({
      get node() {
        reads++;
        return `gpu-${i}`;
      },
      reason: 'kubelet stopped posting node status',
    }));
    const t = dropText('big', down, n, 0);
    expect(t.short.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
    expect(t.short).toMatch(
      /^gpu-0: kubelet stopped posting node status; .*; \+\d+ more\. Ready GPU nodes 4000 → 0\.$/,
    );
    expect(reads).toBeLessThan(10 * n);
  });
});

describe('alert titles', () => {
  it('carry a hostile kubeconfig context name as one clean line', () => {
    const alert = makeAlert(
      {
        at: T0,
        context: 'lab\u001b[2J\nERROR fake',
        kind: 'unreachable',
        nodes: [],
        before: null,
        after: null,
        title: 'lab\u001b[2J\nERROR fake: cluster unreachable',
        body: 'x',
      },
      false,
    );
    expect(alert.title).toBe('lab ERROR fake: cluster unreachable');
  });
});
