/**
 * Forwarding's deliveries into the timeline database: each message's final outcome (delivered, failed,
 * dropped from a full queue, expired) is kept with its alert, channel `<kind>:<target id>`. Retries are
 * not: a target down for hours would fill the timeline with them; its problem sentence says it instead.
 */
import type { TimelineDelivery } from '../../common/timeline.ts';
import type { DeliveryRecorder } from '../forward/recorder.ts';

export interface DeliverySink {
  recordDelivery(alertId: string, delivery: TimelineDelivery): void;
}

export function timelineDeliveries(sink: DeliverySink): DeliveryRecorder {
  return {
    record: (e) => {
      if (e.outcome === 'retrying') return;
      sink.recordDelivery(e.alertId, {
        at: e.at,
        channel: `${e.kind}:${e.target}`,
        ok: e.outcome === 'delivered',
        message: e.detail,
      });
    },
  };
}
