import { describe, expect, it } from 'vitest';
import { contextSnapshot, fleet, inventory } from '../../test/fixtures/snapshots.ts';
import { buildTrayModel, contextLine } from './tray-model.ts';

describe('tray model', () => {
  it('has a line per context with its state and numbers, and checks the focused one', () => {
    const model = buildTrayModel(
      fleet(
        [contextSnapshot('home', 'live', inventory(3, 4)), contextSnapshot('work', 'live', inventory(2, 2))],
        {
          focused: 'work',
          health: 'degraded',
        },
      ),
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

  it('never reports an unreachable cluster as 0 ready', () => {
    const line = contextLine(contextSnapshot('lab', 'unreachable', inventory(0, 4)));
    expect(line).toBe('lab — Unreachable (last seen 0/4)');
    expect(contextLine(contextSnapshot('lab', 'unreachable', null))).toBe('lab — Unreachable');
    expect(contextLine(contextSnapshot('lab', 'connecting', null))).toBe('lab — Connecting');
  });

  it('offers pause choices, and resume while paused', () => {
    const running = buildTrayModel(fleet([]));
    expect(running.menu[0]).toEqual({ label: 'No cluster monitored', enabled: false });
    const pause = running.menu.find((i) => i.label === 'Pause alerts');
    expect(pause?.submenu?.map((i) => i.action)).toEqual([
      { kind: 'pause', until: { kind: 'for', ms: 3_600_000 } },
      { kind: 'pause', until: { kind: 'tomorrow' } },
      { kind: 'pause', until: { kind: 'until-resumed' } },
    ]);
    const paused = buildTrayModel(fleet([], { alertsPausedUntil: '2026-11-30T08:00:00Z', health: 'paused' }));
    expect(paused.menu.find((i) => i.label === 'Resume alerts')?.action).toEqual({ kind: 'resume' });
    expect(paused.tooltip).toContain('Alerts paused');
  });

  it('writes a kubeconfig context name with control characters as one clean line', () => {
    const line = contextLine(contextSnapshot('home\u001b]0;owned\u0007\nfake line', 'live', inventory(3, 4)));
    expect(line).toBe('home fake line — 3/4 ready GPU nodes, 4 GPUs');
  });
});
