/**
 * Pure: the "what happened" list. A node episode runs from its change away from Ready (or from all GPUs
 * offered) to its return; a cluster episode is an unreachable span. Events and alerts inside an episode
 * are counted onto it. An episode still open at the end of the range has `to: null`.
 */
import type {
  Episode,
  NodeChange,
  TimelineAlert,
  TimelineEvent,
  TimelineSpan,
} from '../../common/timeline.ts';

/** Is "allocatable/capacity" fewer GPUs offered than there are? */
export function withdrawn(gpus: string): boolean {
  const [a, c] = gpus.split('/').map(Number);
  return a !== undefined && c !== undefined && Number.isFinite(a) && Number.isFinite(c) && a < c;
}

export function episodesOf(
  changes: readonly NodeChange[],
  spans: readonly TimelineSpan[],
  events: readonly TimelineEvent[],
  alerts: readonly TimelineAlert[],
): Episode[] {
  const out: Episode[] = [];
  const openReady = new Map<string, Episode>();
  const openGpus = new Map<string, Episode>();
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  for (const c of sorted) {
    if (c.kind === 'ready') {
      const open = openReady.get(c.node);
      if (c.to === 'Ready') {
        if (open) {
          open.to = c.at;
          openReady.delete(c.node);
        }
        continue;
      }
      if (open) {
        // NotReady → Unknown: the same episode, now in its latest state.
        open.state = c.to;
        open.reason = c.reason ?? open.reason;
        open.message = c.message ?? open.message;
        if (c.to === 'absent') {
          open.to = c.at;
          openReady.delete(c.node);
        }
        continue;
      }
      if (c.to === 'absent' && c.from === 'Ready') continue; // a node that left while Ready: no outage
      const ep = episode('not-ready', c.node, c.at, c.to, c.reason, c.message);
      out.push(ep);
      if (c.to !== 'absent') openReady.set(c.node, ep);
      else ep.to = c.at;
    } else if (c.kind === 'gpus') {
      const open = openGpus.get(c.node);
      if (withdrawn(c.to)) {
        if (open) open.state = c.to;
        else {
          const ep = episode('gpus-withdrawn', c.node, c.at, c.to, null, null);
          out.push(ep);
          openGpus.set(c.node, ep);
        }
      } else if (open) {
        open.to = c.at;
        openGpus.delete(c.node);
      }
    }
  }
  for (const s of spans) {
    if (s.kind !== 'unreachable') continue;
    out.push({ ...episode('unreachable', null, s.from, 'unreachable', null, s.message), to: s.to });
  }
  const within = (ep: Episode, at: number) => at >= ep.from && (ep.to === null || at <= ep.to);
  for (const ep of out) {
    ep.events = events.filter((e) => (ep.node === null || e.node === ep.node) && within(ep, e.last)).length;
    ep.alerts = alerts.filter(
      (a) => (ep.node === null || a.nodes.includes(ep.node)) && within(ep, a.at),
    ).length;
  }
  return out.sort((a, b) => a.from - b.from);
}

function episode(
  kind: Episode['kind'],
  node: string | null,
  from: number,
  state: string,
  reason: string | null,
  message: string | null,
): Episode {
  return { kind, node, from, to: null, state, reason, message, events: 0, alerts: 0 };
}
