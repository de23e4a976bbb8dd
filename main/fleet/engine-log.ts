/** Writes what the engine does to a logger: connection changes, alerts, inventory changes (debug). */

import type { Logger } from '../log/logger.ts';
import type { FleetEngine } from './engine.ts';

export function logEngine(engine: FleetEngine, logger: Logger): () => void {
  const log = logger.child('engine');
  return engine.on((event) => {
    switch (event.type) {
      case 'connection': {
        const { phase, message, attempt } = event.state;
        const fields = { context: event.context, phase, message, attempt };
        if (phase === 'live' || phase === 'connecting') log.info('connection', fields);
        else log.warn('connection', fields);
        break;
      }
      case 'inventory': {
        const inv = event.inventory;
        log.debug('inventory', {
          context: event.context,
          ready: inv.ready_gpu_nodes,
          total: inv.total_gpu_nodes,
          gpus: inv.total_gpus,
          stale: event.stale,
        });
        break;
      }
      case 'alert':
        log.info('alert', {
          context: event.alert.context,
          kind: event.alert.kind,
          title: event.alert.title,
          suppressed: event.alert.suppressed ?? false,
        });
        break;
      case 'ignored':
        log.warn('ignored nodes', { context: event.context, count: event.count, message: event.message });
        break;
      case 'snapshot':
        break;
    }
  });
}
