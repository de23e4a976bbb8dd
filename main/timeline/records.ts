/**
 * What the recorder queues and the writer stores, one row's worth each. Made on the hot path (cheap,
 * plain objects); written later in batches (writes.ts).
 */
import type {
  CountPoint,
  NodeChange,
  TimelineAlert,
  TimelineDelivery,
  TimelineEvent,
} from '../../common/timeline.ts';
import type { NodeState } from './derive.ts';

export interface GpuSampleRow {
  node: string;
  gpu: number;
  at: number;
  util: number | null;
  temp: number | null;
  power: number | null;
  mem: number | null;
  xid: number | null;
}

export type TimelineRecord =
  | { t: 'change'; ctx: string; change: NodeChange }
  | { t: 'state'; ctx: string; node: string; state: NodeState | null }
  | { t: 'count'; ctx: string; point: CountPoint }
  /** `to` set: a span already over when it is recorded (the app was not running, the disk was full). */
  | {
      t: 'span-open';
      ctx: string;
      kind: 'unreachable' | 'not-recording';
      from: number;
      to: number | null;
      message: string | null;
    }
  | { t: 'span-close'; ctx: string; kind: 'unreachable' | 'not-recording'; to: number }
  | { t: 'alert'; ctx: string; alert: Omit<TimelineAlert, 'deliveries'> }
  | { t: 'delivery'; alert: string; delivery: TimelineDelivery }
  | { t: 'event'; ctx: string; uid: string; event: TimelineEvent }
  | { t: 'sample'; ctx: string; sample: GpuSampleRow }
  /** Free GPUs of one product from `at` on. */
  | { t: 'free'; ctx: string; at: number; product: string; free: number };

/** Every context's spans of "not recording" are stored under this name (the whole timeline was off). */
export const ALL_CONTEXTS = '*';
