import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { shownAlertText } from '../../common/i18n/alert-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import type { GpuReading } from '../telemetry/dcgm-read.ts';
import { evaluateGpus, type GpuHealthState, INITIAL_GPU_HEALTH } from './gpu-health.ts';
import { NO_SNOOZE, snooze } from './snooze.ts';
import type { PolicyAlert } from './types.ts';

const rules = { ...DEFAULT_ALERT_RULES, holdDownMs: 30_000, gpuHotC: 85 };
const gpu = (index: number, over: Partial<GpuReading> = {}): GpuReading => ({
  index,
  uuid: `GPU-${index}`,
  model: 'NVIDIA H100 80GB HBM3',
  util: 50,
  temp: 60,
  power: 300,
  fbUsed: 1000,
  fbFree: 80_000,
  xid: null,
  xidCounts: null,
  ...over,
});

/** Feeds readings (at, gpus) of node n1 and returns every alert. */
function run(readings: [number, GpuReading[] | null][], snoozeState = NO_SNOOZE): PolicyAlert[] {
  let state: GpuHealthState = INITIAL_GPU_HEALTH;
  const out: PolicyAlert[] = [];
  for (const [at, gpus] of readings) {
    const r = evaluateGpus(state, { context: 'lab', node: 'n1', at, gpus }, rules, snoozeState);
    state = r.state;
    out.push(...r.alerts);
  }
  return out;
}

describe('GPU alert policy', () => {
  it('the last XID (never reset): a change alerts, the same value again does not, nor the one seen first', () => {
    const x = (xid: number | null) => [gpu(0, { xid }), gpu(1)];
    const alerts = run([
      [0, x(null)],
      [10_000, x(79)],
      [20_000, x(79)],
      [30_000, null],
      [40_000, x(79)],
      [50_000, x(48)],
      [60_000, x(79)],
    ]);
    expect(alerts.map((a) => [a.kind, a.at, a.words])).toEqual([
      [
        'gpu-xid',
        new Date(10_000).toISOString(),
        expect.objectContaining({ hits: [expect.objectContaining({ xid: 79 })] }),
      ],
      [
        'gpu-xid',
        new Date(50_000).toISOString(),
        expect.objectContaining({ hits: [expect.objectContaining({ xid: 48 })] }),
      ],
      [
        'gpu-xid',
        new Date(60_000).toISOString(),
        expect.objectContaining({ hits: [expect.objectContaining({ xid: 79 })] }),
      ],
    ]);
    expect(alerts[0]?.title).toBe('lab: XID 79 on n1');
    expect(alerts[0]?.body).toBe(
      'n1 GPU 0 (NVIDIA H100 80GB HBM3, GPU-0): XID 79: GPU has fallen off the bus (the GPU is no longer reachable: reboot the node; check power and PCIe).',
    );
    // Already there when the GPU is first seen: where it stands (it may be months old), not news.
    expect(
      run([
        [0, x(79)],
        [10_000, x(79)],
      ]),
    ).toEqual([]);
  });

  it('the windowed count (DCGM_EXP_XID_ERRORS_COUNT) is preferred: a rise alerts, also of the same XID', () => {
    const c = (counts: Record<string, number> | null, xid: number | null = 79) => [
      gpu(0, { xid, xidCounts: counts }),
    ];
    const alerts = run([
      [0, c({ '79': 1 })],
      [10_000, c({ '79': 1 })],
      [20_000, c({ '79': 2 })],
      [30_000, c({})],
      [40_000, c({ '79': 1, '13': 4 })],
    ]);
    expect(
      alerts.map((a) => [a.at, (a.words as { hits: { xid: number }[] }).hits.map((h) => h.xid)]),
    ).toEqual([
      [new Date(0).toISOString(), [79]],
      [new Date(20_000).toISOString(), [79]],
      [new Date(40_000).toISOString(), [79]],
    ]);
  });

  it('the window words a logged XID 79 alert in Korean: node, GPU and the meaning kept from its facts', () => {
    const [a] = run([
      [0, [gpu(0)]],
      [10_000, [gpu(0, { xid: 79 })]],
    ]);
    expect(a?.words).toEqual({
      kind: 'gpu-xid',
      hits: [{ gpu: { index: 0, uuid: 'GPU-0', model: 'NVIDIA H100 80GB HBM3' }, xid: 79 }],
    });
    const ko = shownAlertText(a as PolicyAlert, translator('ko'));
    expect(ko.title).toBe('lab: n1에서 XID 79');
    expect(ko.body).toBe(
      'n1의 GPU 0 (NVIDIA H100 80GB HBM3, GPU-0): XID 79: GPU가 버스에서 떨어짐 (GPU에 더 이상 접근할 수 없음: 노드를 재부팅하고 전원과 PCIe를 확인).',
    );
  });

  it('gone and hot GPUs are worded in the user’s language too', () => {
    const gone = run([
      [0, [gpu(0), gpu(1)]],
      [10_000, [gpu(0)]],
      [50_000, [gpu(0)]],
    ]);
    expect(shownAlertText(gone[0] as PolicyAlert, translator('ja')).title).toBe('lab：n1 で GPU が 1 基消失');
    const hot = run([
      [0, [gpu(0, { temp: 91 })]],
      [30_000, [gpu(0, { temp: 91 })]],
    ]);
    expect(shownAlertText(hot[0] as PolicyAlert, translator('zh-CN')).body).toBe(
      'GPU 0（NVIDIA H100 80GB HBM3, GPU-0） 为 91 °C：高于 85 °C 已持续 30 秒。',
    );
  });

  it('application XIDs (13, 31, 43, 45) and a retired page (63) raise nothing, by either metric', () => {
    for (const xid of [13, 31, 43, 45, 63]) {
      expect(
        run([
          [0, [gpu(0)]],
          [10_000, [gpu(0, { xid })]],
        ]),
      ).toEqual([]);
      expect(run([[0, [gpu(0, { xidCounts: { [String(xid)]: 3 } })]]])).toEqual([]);
    }
    expect(
      run([
        [0, [gpu(0)]],
        [10_000, [gpu(0, { xid: 48 })]],
      ]).map((a) => a.kind),
    ).toEqual(['gpu-xid']);
  });

  it('a GPU gone from the exporter for the hold-down alerts once; a failed scrape is not "gone"', () => {
    const alerts = run([
      [0, [gpu(0), gpu(1)]],
      [10_000, null],
      [20_000, [gpu(0)]],
      [40_000, [gpu(0)]],
      [50_000, [gpu(0)]],
      [60_000, [gpu(0)]],
    ]);
    expect(alerts.map((a) => [a.kind, a.at, a.before, a.after])).toEqual([
      ['gpu-gone', new Date(50_000).toISOString(), 2, 1],
    ]);
    expect(alerts[0]?.body).toBe(
      'GPU 1 (NVIDIA H100 80GB HBM3, GPU-1) no longer appears in the DCGM exporter of n1 (GPUs 2 → 1).',
    );
  });

  it('a GPU back before the hold-down raises nothing', () => {
    expect(
      run([
        [0, [gpu(0), gpu(1)]],
        [10_000, [gpu(0)]],
        [20_000, [gpu(0), gpu(1)]],
        [60_000, [gpu(0), gpu(1)]],
      ]),
    ).toEqual([]);
  });

  it('hot for longer than the hold-down alerts once; a dip below resets it', () => {
    const hot = [gpu(0, { temp: 91 })];
    const alerts = run([
      [0, hot],
      [20_000, [gpu(0, { temp: 80 })]],
      [30_000, hot],
      [50_000, hot],
      [60_000, hot],
      [90_000, hot],
    ]);
    expect(alerts.map((a) => [a.kind, a.at])).toEqual([['gpu-hot', new Date(60_000).toISOString()]]);
    expect(alerts[0]?.body).toBe('GPU 0 (NVIDIA H100 80GB HBM3, GPU-0) at 91 °C: above 85 °C for 30 s.');
  });

  it('while alerts are paused, they are decided but suppressed (logged, not notified)', () => {
    const paused = snooze(NO_SNOOZE, null, { kind: 'until-resumed' }, 0);
    const alerts = run(
      [
        [0, [gpu(0)]],
        [10_000, [gpu(0, { xid: 79 })]],
      ],
      paused,
    );
    expect(alerts.map((a) => [a.kind, a.suppressed])).toEqual([['gpu-xid', true]]);
  });
});
