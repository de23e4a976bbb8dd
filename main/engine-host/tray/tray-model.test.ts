import { describe, expect, it } from 'vitest';
import { translator } from '../../../common/i18n/translator.ts';
import { contextSnapshot, fleet, inventory } from '../../../test/fixtures/snapshots.ts';
import { trayContext, trayFleet } from './tray-fleet.ts';
import { buildTrayModel, contextLine } from './tray-model.ts';

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
