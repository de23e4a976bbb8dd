/** Pure: what the tray says about the engine host while it is not running (nothing while it runs). */
import type { Translator } from '../../common/i18n/translator.ts';

/** The engine host as the shell sees it (main/shell/engine-host-client.ts keeps it). */
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
