/**
 * The words of an alert in one language: title, body (the alert log) and short (the notification),
 * from the alert's facts. Pure. main/alerts makes the English ones with it (the CLI prints those), the
 * window's alert log and desktop notifications make the user's. Node names, context names and the
 * reasons the cluster gave are kept as they are; only our own words are translated.
 */
import type { Alert, AlertWords } from '../alerts.ts';
import { NOTIFICATION_BODY_MAX } from '../alerts.ts';
import { clusterText } from '../cluster-text.ts';
import { reasonWords } from '../node-reason.ts';
import { freeBackWords, noFreeWords } from './free-alert-text.ts';
import { goneWords, hotWords, xidWords } from './gpu-alert-text.ts';
import { nodeLines } from './node-lines.ts';
import type { Translator } from './translator.ts';

export interface AlertText {
  title: string;
  body: string;
  /** The notification's body when the full body would not fit NOTIFICATION_BODY_MAX. */
  short?: string;
}

/** The alert facts the words are made of: the alert's own fields plus its `words`. */
export type AlertInput = Pick<Alert, 'context' | 'nodes' | 'before' | 'after' | 'reasons'> & {
  words: AlertWords;
};

/** "45 s", "3 min", "1 h 5 min", in the locale's units (the English ones are the CLI's). */
export function duration(ms: number, tr: Translator): string {
  if (ms < 60_000) return tr.t('duration.s', { n: Math.round(ms / 1000) });
  if (ms < 3_600_000) return tr.t('duration.min', { n: Math.round(ms / 60_000) });
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return m === 0 ? tr.t('duration.h', { n: h }) : tr.t('duration.hMin', { h, m });
}

const names = (list: readonly string[], tr: Translator) => list.join(tr.t('common.listSeparator'));
const sentences = (parts: readonly string[], tr: Translator) =>
  parts.filter((p) => p !== '').join(tr.t('common.sentenceSeparator'));

interface Down {
  node: string;
  reason: string;
}

function reasonItems(down: readonly Down[], tr: Translator): string[] {
  return nodeLines(tr, 'alert.reason', down, (d) => ({ reason: d.reason }));
}

/**
 * `items` joined by `join`, cut to fit `max` characters with "+N more" (at least the first is named, cut
 * if it must be). The longest prefix that fits is grown from the front and the loop stops at the first
 * that does not: a notification about thousands of nodes never joins every one.
 */
function fitted(
  items: readonly string[],
  max: number,
  join: (parts: readonly string[]) => string,
  tr: Translator,
): string {
  const all = join(items);
  if (all.length <= max) return all;
  const more = (n: number) => tr.t('alert.more', { count: n });
  let fit: string | null = null;
  for (let n = 2; n < items.length; n++) {
    const candidate = join([...items.slice(0, n), more(items.length - n)]);
    if (candidate.length > max) break;
    fit = candidate;
  }
  if (fit !== null) return fit;
  const tail = items.length > 1 ? [more(items.length - 1)] : [];
  // What the join adds around the first item (its separator and the tail), measured with a 1-character stand-in.
  const room = Math.max(20, max - (join(['x', ...tail]).length - 1));
  return join([clusterText(items[0] ?? '', room), ...tail]);
}

/** The reason list cut to fit `max` characters (the notification's body). */
function fittedReasons(down: readonly Down[], max: number, tr: Translator): string {
  const sep = tr.t('alert.reasonSeparator');
  return fitted(reasonItems(down, tr), max, (parts) => parts.join(sep), tr);
}

function dropWords(a: AlertInput, w: Extract<AlertWords, { kind: 'ready-drop' }>, tr: Translator): AlertText {
  const gone = new Set(w.left);
  const down: Down[] = (a.reasons ?? a.nodes.map((node) => ({ node, reason: '' }))).map((r, i) => {
    const why = w.why?.[i] ?? null;
    const cause = w.cause?.[i] ?? null;
    const ready = why === null ? r.reason : reasonWords(why, tr);
    // The real cause first, when another tool's GPU health signal named one.
    const reason = gone.has(r.node)
      ? tr.t('alert.leftCluster')
      : cause === null
        ? ready
        : tr.t('alert.causeFirst', { cause, reason: ready });
    return { node: r.node, reason };
  });
  const change = tr.t('alert.readyChange', { before: a.before ?? 0, after: a.after ?? 0 });
  const body = (reasons: string) => tr.t('alert.drop.body', { reasons, change });
  // What the body template adds around the reasons, so the fitted list leaves room for it.
  const frame = body('').length;
  return {
    title: tr.t('alert.drop.title', { context: a.context, count: down.length }),
    body: body(reasonItems(down, tr).join(tr.t('alert.reasonSeparator'))),
    short: body(fittedReasons(down, NOTIFICATION_BODY_MAX - frame, tr)),
  };
}

function recoveredWords(a: AlertInput, tr: Translator): AlertText {
  const who =
    a.nodes.length === 0
      ? ''
      : tr.t('alert.recovered.who', { nodes: names(a.nodes, tr), count: a.nodes.length });
  return {
    title: tr.t('alert.recovered.title', { context: a.context }),
    body: sentences([who, tr.t('alert.readyChange', { before: a.before ?? 0, after: a.after ?? 0 })], tr),
  };
}

function wordsOf(a: AlertInput, tr: Translator): AlertText {
  const w = a.words;
  const context = a.context;
  switch (w.kind) {
    case 'ready-drop':
      return dropWords(a, w, tr);
    case 'recovered':
      return recoveredWords(a, tr);
    case 'unreachable': {
      const known =
        a.before === null || w.total === null
          ? tr.t('alert.unreachable.unknown')
          : tr.t('alert.unreachable.lastKnown', { ready: a.before, total: w.total });
      return {
        title: tr.t('alert.unreachable.title', { context }),
        body: sentences(
          [tr.t('alert.unreachable.body', { context, duration: duration(w.forMs, tr) }), known],
          tr,
        ),
      };
    }
    case 'reachable': {
      const now = a.after === null ? '' : tr.t('alert.readyNow', { count: a.after });
      return {
        title: tr.t('alert.reachable.title', { context }),
        body: sentences(
          [tr.t('alert.reachable.body', { context, duration: duration(w.afterMs, tr) }), now],
          tr,
        ),
      };
    }
    case 'flapping': {
      const count = a.nodes.length;
      const list = names(a.nodes, tr);
      const window = duration(w.windowMs, tr);
      const times = tr.t('alert.flapping.times', { count: w.threshold });
      return {
        title: tr.t('alert.flapping.title', { context, nodes: list, count }),
        body: sentences(
          [
            tr.t('alert.flapping.body', { nodes: list, times, window }),
            tr.t('alert.flapping.quiet', { count, window }),
          ],
          tr,
        ),
      };
    }
    case 'gpus-withdrawn': {
      const lines = nodeLines(tr, 'alert.withdrawn.line', w.lines, (l) => ({
        allocatable: l.allocatable,
        count: l.capacity,
      }));
      const body = sentences([...lines, tr.t('alert.withdrawn.rest')], tr);
      return {
        title: tr.t('alert.withdrawn.title', {
          context,
          nodes: names(
            w.lines.map((l) => l.node),
            tr,
          ),
        }),
        body,
        ...(body.length > NOTIFICATION_BODY_MAX
          ? { short: fitted(lines, NOTIFICATION_BODY_MAX, (parts) => sentences(parts, tr), tr) }
          : {}),
      };
    }
    case 'gpu-xid':
      return xidWords(context, a.nodes[0] ?? '', w, tr);
    case 'gpu-gone':
      return goneWords(context, a.nodes[0] ?? '', w, a.before ?? 0, a.after ?? 0, tr);
    case 'gpu-hot':
      return hotWords(context, a.nodes[0] ?? '', w, (ms) => duration(ms, tr), tr);
    case 'no-free-gpu':
      return noFreeWords(context, w, (ms) => duration(ms, tr), tr);
    case 'free-gpu-back':
      return freeBackWords(context, w, a.after ?? 0, (ms) => duration(ms, tr), tr);
  }
}

/**
 * An alert's words in a language. The title is one clean line (it carries the kubeconfig's context
 * name into a notification); `short` is left out when it says the same as `body`.
 */
export function alertText(a: AlertInput, tr: Translator): AlertText {
  const made = wordsOf(a, tr);
  const out: AlertText = { title: clusterText(made.title, 200), body: made.body };
  if (made.short !== undefined && made.short !== made.body) out.short = made.short;
  return out;
}

/** What the window and a notification show for an alert: its words in `tr`'s language, or as logged. */
export function shownAlertText(alert: Alert, tr: Translator): AlertText {
  if (alert.words) return alertText({ ...alert, words: alert.words }, tr);
  const out: AlertText = { title: alert.title, body: alert.body };
  if (alert.short !== undefined) out.short = alert.short;
  return out;
}
