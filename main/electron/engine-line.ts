/**
 * Pure, in Electron's main process: what the tray says about the engine host while it is not running
 * (nothing while it runs), added over the last model the host sent.
 */
import type { Translator } from '../../common/i18n/translator.ts';
import type { TrayModel } from '../../common/tray-menu.ts';

/** The engine host as the shell sees it (engine-host-client.ts keeps it). */
export type EngineHostState =
  | { kind: 'running' }
  /** Spawned, not ready yet: the first start, or a restart under way. */
  | { kind: 'starting'; restarts: number }
  /** Exited without being asked to; the next start is due at `retryAt` (epoch ms). */
  | { kind: 'restarting'; restarts: number; retryAt: number; exitCode: number | null }
  | { kind: 'stopped' };

export function engineLine(state: EngineHostState, tr: Translator): string | null {
  switch (state.kind) {
    case 'running':
    case 'stopped':
      return null;
    case 'starting':
      return state.restarts === 0
        ? tr.t('tray.engineStarting')
        : tr.t('tray.engineRestarting', { count: state.restarts });
    case 'restarting':
      return tr.t('tray.engineRestarting', { count: state.restarts });
  }
}

/**
 * The model with what the shell knows of the engine host: nothing while it runs; otherwise a first line
 * saying so (over the last counts it had), the idle icon at launch and the unreachable one while it
 * restarts (nothing is being watched).
 */
export function withEngine(model: TrayModel, engine: EngineHostState, tr: Translator): TrayModel {
  const text = engineLine(engine, tr);
  if (!text) return model;
  const [name, ...rest] = model.tooltip.split('\n');
  return {
    icon: engine.kind === 'starting' && engine.restarts === 0 ? 'idle' : 'unreachable',
    tooltip: [name, text, ...rest].join('\n'),
    menu: [{ label: text, enabled: false }, { label: '', type: 'separator' }, ...model.menu],
  };
}
