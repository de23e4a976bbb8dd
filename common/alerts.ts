/** Alerts as the user reads them: in notifications, the alert log and the CLI's `watch -o json`. */

import type { ShortReason } from './node-reason.ts';

/** Every kind of alert; the alert log's schema (common/alert-log-schema.ts) takes its list from here. */
export const ALERT_KINDS = [
  'ready-drop',
  'recovered',
  'unreachable',
  'reachable',
  'flapping',
  'gpus-withdrawn',
  /** DCGM telemetry (issue 17): an XID that is not known-benign, a GPU gone from the exporter, a hot GPU. */
  'gpu-xid',
  'gpu-gone',
  'gpu-hot',
  /**
   * Free GPUs (issue 23, optional, off by default): no GPU of a product free on the nodes a pod can be
   * placed on now for the hold-down, and its recovery.
   */
  'no-free-gpu',
  'free-gpu-back',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface Alert {
  id: string;
  /** RFC 3339 time the alert was decided. */
  at: string;
  context: string;
  kind: AlertKind;
  title: string;
  body: string;
  /** The nodes this alert is about (may be empty for whole-cluster alerts). */
  nodes: string[];
  /**
   * The numbers before and after (ready GPU nodes; allocatable GPUs for `gpus-withdrawn`; free GPUs of
   * the product for `no-free-gpu` and `free-gpu-back`).
   */
  before: number | null;
  after: number | null;
  /**
   * Why each node of a drop is down, in the words of `shortReason()` (common/node-reason.ts); a node that
   * left the cluster says so. Only on `ready-drop` alerts. `nodes[0]` is the first node with a detail.
   */
  reasons?: { node: string; reason: string }[];
  /** The notification's body (at most NOTIFICATION_BODY_MAX characters) when `body` is longer. */
  short?: string;
  /**
   * What the words were made from, beyond the fields above, so the window and notifications can word
   * the alert in the user's language (common/i18n/alert-text.ts); `title` and `body` are the English
   * ones (the CLI's). Alerts logged before languages existed have none and are shown as logged.
   */
  words?: AlertWords;
}

/**
 * The facts of an alert's words, per kind. Node lists, counts and reasons live on the Alert itself
 * (`nodes`, `before`, `after`, `reasons`); this holds only what they do not say.
 */
export type AlertWords =
  /**
   * `left`: the nodes of `reasons` that left the cluster (their reason is ours, so it is translated).
   * `why`: per entry of `reasons`, the facts its short reason was worded from (null: shown as logged);
   * absent on alerts logged before it existed.
   */
  | {
      kind: 'ready-drop';
      left: string[];
      why?: (ShortReason | null)[];
      /**
       * Per node, the real cause another tool's GPU health signal names (common/gpu-why.ts `gpuCause`),
       * in its words, said before the Ready reason; absent when no node has one.
       */
      cause?: (string | null)[];
    }
  | { kind: 'recovered' }
  /** `total`: GPU nodes last known (null when no inventory was known); `before` is how many were Ready. */
  | { kind: 'unreachable'; forMs: number; total: number | null }
  | { kind: 'reachable'; afterMs: number }
  | { kind: 'flapping'; threshold: number; windowMs: number }
  | { kind: 'gpus-withdrawn'; lines: { node: string; allocatable: number; capacity: number }[] }
  /** DCGM telemetry; the node is `nodes[0]`. `xid` is the code, its meaning comes from the catalogs. */
  | { kind: 'gpu-xid'; hits: { gpu: GpuRef; xid: number }[] }
  /** `before`/`after` on the Alert count the node's GPUs. */
  | { kind: 'gpu-gone'; gone: GpuRef[] }
  | { kind: 'gpu-hot'; hot: { gpu: GpuRef; temp: number }[]; thresholdC: number; forMs: number }
  /**
   * `product`: the product's label as free GPUs show it (`A100 SXM4 40GB MIG 1g.5gb`), from the cluster's
   * labels. `allocatable`: its allocatable GPUs across the cluster; `pending`: the cluster's Pending GPU pods.
   */
  | {
      kind: 'no-free-gpu';
      product: string;
      allocatable: number;
      pending: number;
      forMs: number;
      /** The product's facts, so each language words it (absent in alerts logged before). */
      item?: AlertProduct;
    }
  | { kind: 'free-gpu-back'; product: string; afterMs: number; item?: AlertProduct };

/** A free-GPU product as facts: the node's product label, the slot kind, the MIG profile. */
export interface AlertProduct {
  product: string | null;
  kind: 'whole' | 'mig' | 'shared' | 'device';
  profile: string | null;
}

/** A GPU as an alert names it: its index on the node, and the UUID and model when DCGM gave them. */
export interface GpuRef {
  index: number;
  uuid: string | null;
  model: string | null;
}

/** At most this many GPUs are named in one alert's words (a node's DCGM exporter reports up to 64). */
export const ALERT_GPUS_MAX = 64;

/** Desktop notifications show about this much of a body (macOS and Windows cut near 200 characters). */
export const NOTIFICATION_BODY_MAX = 200;

/** How long a pause of alerts lasts: a while, until tomorrow morning, or until the user resumes. */
export type SnoozeUntil = { kind: 'for'; ms: number } | { kind: 'tomorrow' } | { kind: 'until-resumed' };
