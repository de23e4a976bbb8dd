import { describe, expect, it } from 'vitest';
import { translator } from '../../../common/i18n/translator.ts';
import type { GpuNodeEntry } from '../../../common/inventory.ts';
import { contextSnapshot, fleet, inventory } from '../../../test/fixtures/snapshots.ts';
import { trayContext, trayFleet } from './tray-fleet.ts';
import { buildTrayModel, contextLine, downNodeLines, TRAY_DOWN_NODES_MAX } from './tray-model.ts';

const en = translator('en');

describe('tray model', () => {
  it('has a line per context with its state and numbers, and checks the focused one', () => {
    const model = buildTrayModel(
      trayFleet(
        fleet(
          [
            contextSnapshot('home', 'live', inventory(3, 4)),
            contextSnapshot('work', 'live', inventory(2, 2)),
          ],
          {
            focused: 'work',
            health: 'degraded',
          },
        ),
      ),
      en,
    );
    expect(model.icon).toBe('degraded');
    expect(model.menu.slice(0, 3)).toEqual([
      {
        label: 'home — 3/4 ready GPU nodes, 4 GPUs',
        type: 'checkbox',
        checked: false,
        action: { kind: 'focus', context: 'home' },
      },
      { label: '    gpu-3 — readiness unknown', enabled: false },
      {
        label: 'work — 2/2 ready GPU nodes, 2 GPUs',
        type: 'checkbox',
        checked: true,
        action: { kind: 'focus', context: 'work' },
      },
    ]);
    expect(model.tooltip).toBe(
      'GPU Fleet\nhome — 3/4 ready GPU nodes, 4 GPUs\nwork — 2/2 ready GPU nodes, 2 GPUs',
    );
    expect(model.menu.map((i) => i.label)).toEqual(
      expect.arrayContaining(['Open GPU Fleet', 'Pause alerts', 'Quit GPU Fleet']),
    );
  });

  it('speaks the user’s language: Korean lines, menu and tooltip, names and Kubernetes words kept', () => {
    const ko = translator('ko');
    const model = buildTrayModel(trayFleet(fleet([contextSnapshot('home', 'live', inventory(3, 4))])), ko);
    expect(model.menu[0]?.label).toBe('home — GPU 노드 3/4 Ready, GPU 4개');
    expect(model.menu.map((i) => i.label)).toEqual(
      expect.arrayContaining(['GPU Fleet 열기', '알림 일시 중지', '설정…', 'GPU Fleet 종료']),
    );
    expect(
      contextLine(trayContext(contextSnapshot('lab', 'unreachable', inventory(0, 4))), translator('ja')),
    ).toBe('lab — 到達不能（最後に確認 0/4）');
    expect(buildTrayModel(trayFleet(fleet([])), translator('zh-CN')).tooltip).toBe(
      'GPU Fleet\n未监控任何集群',
    );
  });

  it('never reports an unreachable cluster as 0 ready', () => {
    const line = contextLine(trayContext(contextSnapshot('lab', 'unreachable', inventory(0, 4))), en);
    expect(line).toBe('lab — Unreachable (last seen 0/4)');
    expect(contextLine(trayContext(contextSnapshot('lab', 'unreachable', null)), en)).toBe(
      'lab — Unreachable',
    );
    expect(contextLine(trayContext(contextSnapshot('lab', 'connecting', null)), en)).toBe('lab — Connecting');
  });

  it('offers pause choices, and resume while paused', () => {
    const running = buildTrayModel(trayFleet(fleet([])), en);
    expect(running.menu[0]).toEqual({ label: 'No cluster monitored', enabled: false });
    const pause = running.menu.find((i) => i.label === 'Pause alerts');
    expect(pause?.submenu?.map((i) => i.action)).toEqual([
      { kind: 'pause', until: { kind: 'for', ms: 3_600_000 } },
      { kind: 'pause', until: { kind: 'tomorrow' } },
      { kind: 'pause', until: { kind: 'until-resumed' } },
    ]);
    const paused = buildTrayModel(
      trayFleet(fleet([], { alertsPausedUntil: '2026-11-30T08:00:00Z', health: 'paused' })),
      en,
    );
    expect(paused.menu.find((i) => i.label === 'Resume alerts')?.action).toEqual({ kind: 'resume' });
    expect(paused.tooltip).toContain('Alerts paused');
  });

  it('pauses one cluster from its own submenu, says so on its line, and resumes it', () => {
    const running = buildTrayModel(
      trayFleet(
        fleet([
          contextSnapshot('home', 'live', inventory(3, 4)),
          contextSnapshot('work', 'live', inventory(2, 2)),
        ]),
      ),
      en,
    );
    const pause = running.menu.find((i) => i.label === 'Pause alerts');
    const labels = pause?.submenu?.map((i) => i.label);
    expect(labels).toEqual([
      'For 1 hour',
      'Until tomorrow morning (08:00)',
      'Until I resume',
      '',
      'Only one cluster:',
      'home',
      'work',
    ]);
    const home = pause?.submenu?.find((i) => i.label === 'home');
    expect(home?.type).toBe('submenu');
    expect(home?.submenu?.map((i) => i.action)).toEqual([
      { kind: 'pause', until: { kind: 'for', ms: 3_600_000 }, context: 'home' },
      { kind: 'pause', until: { kind: 'tomorrow' }, context: 'home' },
      { kind: 'pause', until: { kind: 'until-resumed' }, context: 'home' },
    ]);

    // Paused until 21:00 on the snapshot's own day: the line keeps its health and adds the pause.
    const end = '2026-11-29T21:00:00Z';
    const paused = buildTrayModel(
      trayFleet(
        fleet([
          contextSnapshot('home', 'live', inventory(3, 4), { alertsPausedUntil: end }),
          contextSnapshot('work', 'live', inventory(2, 2)),
        ]),
      ),
      en,
    );
    expect(paused.menu[0]?.label).toBe('home — 3/4 ready GPU nodes, 4 GPUs · alerts paused');
    expect(paused.tooltip).toContain('home — 3/4 ready GPU nodes, 4 GPUs · alerts paused');
    const resume = paused.menu
      .find((i) => i.label === 'Pause alerts')
      ?.submenu?.find((i) => i.action?.kind === 'resume');
    expect(resume?.action).toEqual({ kind: 'resume', context: 'home' });
    expect(resume?.label).toMatch(/^Resume alerts for home \(paused until .+\)$/);
    expect(resume?.label).toContain(en.dateTime(Date.parse(end), { hour: '2-digit', minute: '2-digit' }));
  });

  it('words the per-cluster pause in Korean too', () => {
    const ko = translator('ko');
    const model = buildTrayModel(
      trayFleet(
        fleet([contextSnapshot('home', 'live', inventory(3, 4), { alertsPausedUntil: 'until resumed' })]),
      ),
      ko,
    );
    expect(model.menu[0]?.label).toBe('home — GPU 노드 3/4 Ready, GPU 4개 · 알림 일시 중지됨');
    const resume = model.menu.find((i) => i.label === '알림 일시 중지')?.submenu?.at(-1);
    expect(resume?.label).toBe('home 알림 다시 켜기(다시 켤 때까지 일시 중지됨)');
  });

  it('writes a kubeconfig context name with control characters as one clean line', () => {
    const line = contextLine(
      trayContext(contextSnapshot('home\u001b]0;owned\u0007\nfake line', 'live', inventory(3, 4))),
      en,
    );
    expect(line).toBe('home fake line — 3/4 ready GPU nodes, 4 GPUs');
  });
});

// The tray names the down GPU nodes of each context, with why, under its line.
const downInventory = (n: number, patch: Partial<GpuNodeEntry> = {}) => {
  const inv = inventory(0, n);
  return { ...inv, nodes: inv.nodes.map((e) => ({ ...e, ...patch })) };
};
const UNKNOWN: Partial<GpuNodeEntry> = {
  readiness: 'Unknown',
  not_ready_reason: 'NodeStatusUnknown',
  not_ready_message: 'Kubelet stopped posting node status.',
};

describe('downNodeLines', () => {
  it('lists each down GPU node with its reason, disabled, under its context', () => {
    const ctx = contextSnapshot('home-lab', 'live', downInventory(2, UNKNOWN));
    const model = buildTrayModel(trayFleet(fleet([ctx])), en);
    expect(model.menu.slice(0, 3).map((i) => [i.label, i.enabled])).toEqual([
      ['home-lab — 0/2 ready GPU nodes, 2 GPUs', undefined],
      ['    gpu-0 — kubelet stopped posting node status', false],
      ['    gpu-1 — kubelet stopped posting node status', false],
    ]);
  });

  it(`shows at most ${TRAY_DOWN_NODES_MAX} and counts the rest`, () => {
    const lines = downNodeLines(trayContext(contextSnapshot('big', 'live', downInventory(9, UNKNOWN))), en);
    expect(lines).toHaveLength(TRAY_DOWN_NODES_MAX + 1);
    expect(lines.at(-1)).toEqual({ label: '    +4 more down', enabled: false });
  });

  it('says nothing for a healthy or an unreachable context', () => {
    expect(downNodeLines(trayContext(contextSnapshot('ok', 'live', inventory(3, 3))), en)).toEqual([]);
    expect(
      downNodeLines(trayContext(contextSnapshot('gone', 'unreachable', downInventory(2, UNKNOWN))), en),
    ).toEqual([]);
    expect(downNodeLines(trayContext(contextSnapshot('new', 'connecting', null)), en)).toEqual([]);
  });

  it('names a flapping node that is Ready just now, so the degraded icon has a reason', () => {
    const ctx = contextSnapshot('small-lab', 'live', inventory(4, 4), { flapping: ['lab-l4'] });
    // The icon is the snapshot's health (degraded: common/health.ts); this line says why.
    const model = buildTrayModel(trayFleet(fleet([ctx])), en);
    expect(model.menu.slice(0, 2).map((i) => [i.label, i.enabled])).toEqual([
      ['small-lab — 4/4 ready GPU nodes, 4 GPUs', undefined],
      ['    lab-l4 — flapping between Ready and NotReady', false],
    ]);
  });

  it('keeps a hostile node name and message to one short clean line', () => {
    const inv = downInventory(1, {
      name: `evil\u001b]0;owned\u0007\n${'n'.repeat(300)}`,
      readiness: 'False',
      not_ready_message: `x\u001b[2J${'y'.repeat(500)}`,
    });
    const [line] = downNodeLines(trayContext(contextSnapshot('lab', 'live', inv)), en);
    expect(line?.label.length).toBeLessThanOrEqual(80);
    expect(Array.from(line?.label ?? '').some((c) => (c.codePointAt(0) ?? 0) < 32)).toBe(false);
  });
});
