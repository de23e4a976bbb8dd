/** The line the shell adds over the host's last tray model while the engine host is not running. */
import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { contextSnapshot, fleet, inventory } from '../../test/fixtures/snapshots.ts';
import { trayFleet } from '../engine-host/tray/tray-fleet.ts';
import { buildTrayModel } from '../engine-host/tray/tray-model.ts';
import { withEngine } from './engine-line.ts';

describe('the tray while the engine host is not running', () => {
  const en = translator('en');
  const live = trayFleet(fleet([contextSnapshot('home', 'live', inventory(4, 4))], { health: 'all-ready' }));
  it('says the engine is starting at launch, with the idle icon', () => {
    const model = withEngine(buildTrayModel(live, en), { kind: 'starting', restarts: 0 }, en);
    expect(model.tooltip.split('\n')[1]).toBe('Starting the engine…');
    expect(model.icon).toBe('idle');
    expect(model.menu[0]).toEqual({ label: 'Starting the engine…', enabled: false });
  });
  it('says it is restarting over the last counts, with the unreachable icon', () => {
    for (const engine of [
      { kind: 'restarting', restarts: 2, retryAt: 0, exitCode: 1 },
      { kind: 'starting', restarts: 2 },
    ] as const) {
      const model = withEngine(buildTrayModel(live, en), engine, en);
      expect(model.tooltip).toBe(
        'GPU Fleet\nThe engine stopped unexpectedly; restarting (attempt 2)\nhome — 4/4 ready GPU nodes, 4 GPUs',
      );
      expect(model.icon).toBe('unreachable');
    }
  });
  it('says nothing of the engine while it runs', () => {
    const model = withEngine(buildTrayModel(live, en), { kind: 'running' }, en);
    expect(model.tooltip).toBe('GPU Fleet\nhome — 4/4 ready GPU nodes, 4 GPUs');
    expect(model.icon).toBe('all-ready');
  });
});
