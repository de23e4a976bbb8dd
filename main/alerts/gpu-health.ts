/**
 * The alert policy of DCGM telemetry (pure, epoch ms passed in): per node and kind at most one alert
 * until the condition clears, whatever the number of scrapes.
 * - gpu-xid: a GPU reports a new XID that is not known-benign (main/telemetry/xid.ts `newXids`): a rise
 *   of the windowed count when the exporter has it, else a change of the last XID, which never resets
 *   (the value a GPU already shows when first seen is not news, and a repeated identical XID cannot be
 *   seen there). At once: an XID does not blink.
 * - gpu-gone: a GPU seen on this node before is missing from a successful scrape for the hold-down.
 * - gpu-hot: a GPU above `rules.gpuHotC` for the hold-down.
 * A failed scrape changes nothing (a node that is down is the ready-drop alert's business). Alerts decided
 * while paused are kept `suppressed` (logged, not notified), as the drop alerts are.
 */
import type { AlertRules } from '../../common/alert-rules.ts';
import { ALERT_GPUS_MAX, type AlertKind, type AlertWords, type GpuRef } from '../../common/alerts.ts';
import { type Dict, dict, own, withKey, withoutKey } from '../../common/dict.ts';
import type { GpuReading } from '../telemetry/dcgm-read.ts';
import { isBenignXid, newXids, type XidSeen } from '../telemetry/xid.ts';
import { isSnoozed, type SnoozeState } from './snooze.ts';
import { englishWords, makeAlert } from './text.ts';
import type { PolicyAlert } from './types.ts';

export interface NodeGpuPolicy {
  /** Every GPU seen on the node, by index (to name one that is gone). */
  known: Dict<GpuRef>;
  /** What each GPU (by index) last said of XIDs, to tell a new one from the one that stays. */
  xids: Dict<XidSeen>;
  goneSince: number | null;
  goneAlerted: boolean;
  hotSince: number | null;
  hotAlerted: boolean;
}

/** Context → node → policy. */
export type GpuHealthState = Dict<Dict<NodeGpuPolicy>>;

export const INITIAL_GPU_HEALTH: GpuHealthState = Object.freeze(dict<Dict<NodeGpuPolicy>>());

export interface GpuObservation {
  context: string;
  node: string;
  at: number;
  /** Null: the scrape failed. */
  gpus: readonly GpuReading[] | null;
}

const refOf = (g: GpuReading): GpuRef => ({ index: g.index, uuid: g.uuid, model: g.model });

function fresh(): NodeGpuPolicy {
  return {
    known: dict(),
    xids: dict(),
    goneSince: null,
    goneAlerted: false,
    hotSince: null,
    hotAlerted: false,
  };
}

export function evaluateGpus(
  state: GpuHealthState,
  obs: GpuObservation,
  rules: AlertRules,
  snooze: SnoozeState,
): { state: GpuHealthState; alerts: PolicyAlert[] } {
  if (obs.gpus === null) return { state, alerts: [] };
  const { context, node, at, gpus } = obs;
  const nodes = own(state, context) ?? dict<NodeGpuPolicy>();
  const prev = own(nodes, node);
  const p: NodeGpuPolicy = prev ? { ...prev, known: { ...prev.known }, xids: { ...prev.xids } } : fresh();
  const facts: {
    kind: AlertKind;
    words: AlertWords;
    before: number | null;
    after: number | null;
  }[] = [];

  const hits: { gpu: GpuRef; xid: number }[] = [];
  for (const g of gpus) {
    const seen: XidSeen = { last: g.xid, counts: g.xidCounts };
    for (const xid of newXids(own(p.xids, String(g.index)), seen))
      if (!isBenignXid(xid)) hits.push({ gpu: refOf(g), xid });
    p.xids[String(g.index)] = seen;
  }
  if (hits.length > 0)
    facts.push({
      kind: 'gpu-xid',
      words: { kind: 'gpu-xid', hits: hits.slice(0, ALERT_GPUS_MAX) },
      before: null,
      after: null,
    });

  const present = new Set(gpus.map((g) => g.index));
  const gone = prev ? Object.values(p.known).filter((g) => !present.has(g.index)) : [];
  if (gone.length === 0) {
    p.goneSince = null;
    p.goneAlerted = false;
  } else {
    p.goneSince ??= at;
    if (!p.goneAlerted && at - p.goneSince >= rules.holdDownMs) {
      p.goneAlerted = true;
      const before = Object.keys(p.known).length;
      facts.push({
        kind: 'gpu-gone',
        words: { kind: 'gpu-gone', gone: gone.slice(0, ALERT_GPUS_MAX) },
        before,
        after: gpus.length,
      });
    }
  }
  for (const g of gpus) p.known[String(g.index)] = refOf(g);

  const hot = gpus.filter((g) => g.temp !== null && g.temp > rules.gpuHotC);
  if (hot.length === 0) {
    p.hotSince = null;
    p.hotAlerted = false;
  } else {
    p.hotSince ??= at;
    if (!p.hotAlerted && at - p.hotSince >= rules.holdDownMs) {
      p.hotAlerted = true;
      const lines = hot.slice(0, ALERT_GPUS_MAX).map((g) => ({ gpu: refOf(g), temp: g.temp as number }));
      const words: AlertWords = {
        kind: 'gpu-hot',
        hot: lines,
        thresholdC: rules.gpuHotC,
        forMs: at - p.hotSince,
      };
      facts.push({
        kind: 'gpu-hot',
        words,
        before: null,
        after: null,
      });
    }
  }

  const suppressed = isSnoozed(snooze, context, at);
  const alerts = facts.map((f) => {
    const words = englishWords(context, { nodes: [node], before: f.before, after: f.after }, f.words);
    const a = makeAlert(
      { at, context, kind: f.kind, nodes: [node], before: f.before, after: f.after, ...words },
      suppressed,
    );
    // Two nodes may be judged at the same instant: the node keeps the ids apart.
    a.id = `${context}:${f.kind}:${node}:${a.at}`;
    return a;
  });
  return { state: withKey(state, context, withKey(nodes, node, p)), alerts };
}

export function forgetGpuContext(state: GpuHealthState, context: string): GpuHealthState {
  return own(state, context) === undefined ? state : withoutKey(state, context);
}
