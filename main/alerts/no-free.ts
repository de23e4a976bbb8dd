/**
 * The optional no-free-GPU alert (issue 23; `rules.noFreeGpu`, off by default), pure over epoch ms:
 * - `no-free-gpu`: no GPU of a product (a ProductFree: product, slot kind, MIG profile) is free on the
 *   nodes a pod can be placed on now, for the hold-down. A product already full when first seen (the
 *   app starting, the rule turned on) is taken as known, as the ready-drop alert takes the nodes it
 *   first sees: it is alerted only after a GPU of it was free once.
 * - `free-gpu-back`: a product alerted has a free GPU again (at once, like a node's recovery).
 * - Flap damping as for nodes: a product that changes between none free and some free more than
 *   `flapThreshold` times within `flapWindowMs` raises nothing until stable for a window; then it is
 *   judged again (a spell of none free that began at its last change alerts at once if held long enough).
 * - Figures that are not known and fresh (pods forbidden or still listed, the pods watch reconnecting,
 *   free GPUs off) raise nothing and void running hold-downs: unknown is never "none free".
 * A product no longer in the figures (its nodes left) is forgotten without an alert; the ready-drop
 * alert speaks for its nodes.
 */
import type { AlertRules } from '../../common/alert-rules.ts';
import { dict, own } from '../../common/dict.ts';
import { type ClusterFree, knownProducts } from '../../common/free-gpus.ts';
import { type AlertFacts, freeBackText, noFreeText } from './text.ts';
import type { NoFreeState, ProductWatch } from './types.ts';

/** Products followed per cluster (the first of the figures' order): a hostile label set stays bounded. */
export const PRODUCTS_WATCHED_MAX = 100;

export const NO_FREE_NONE: NoFreeState = Object.freeze({
  known: false,
  products: Object.freeze(dict<ProductWatch>()),
});

/**
 * One judgement. `news` is the cluster's figures now, or undefined for a due tick (judge what was last
 * known against the clock).
 */
export function judgeNoFree(
  prev: NoFreeState,
  context: string,
  at: number,
  news: ClusterFree | undefined,
  rules: AlertRules,
): { noFree: NoFreeState; alerts: AlertFacts[] } {
  if (!rules.noFreeGpu) {
    const empty = !prev.known && Object.keys(prev.products).length === 0;
    return { noFree: empty ? prev : NO_FREE_NONE, alerts: [] };
  }
  if (news === undefined)
    return prev.known ? decideAll(prev, context, at, rules) : { noFree: prev, alerts: [] };
  if (news.state !== 'known' || news.stale) {
    const products = dict<ProductWatch>();
    for (const [key, w] of Object.entries(prev.products)) products[key] = { ...w, since: null };
    return { noFree: { known: false, products }, alerts: [] };
  }
  const products = dict<ProductWatch>();
  const horizon = at - rules.flapWindowMs;
  for (const p of knownProducts(news).slice(0, PRODUCTS_WATCHED_MAX)) {
    const zero = p.free === 0;
    const w = own(prev.products, p.key);
    const facts = {
      label: p.label,
      item: { product: p.product, kind: p.kind, profile: p.profile },
      free: p.free,
      allocatable: p.allocatable,
      pending: news.pending?.count ?? 0,
    };
    if (w === undefined) {
      products[p.key] = {
        ...facts,
        since: null,
        accepted: zero,
        alertedSince: null,
        changes: [],
        flapping: null,
      };
      continue;
    }
    const wasZero = w.free === 0;
    const changes = w.changes.filter((t) => t > horizon);
    let flapping = w.flapping;
    if (wasZero !== zero) {
      changes.push(at);
      if (flapping !== null || changes.length > rules.flapThreshold) flapping = at;
    }
    products[p.key] = {
      ...facts,
      // A spell of none free goes on from when it began; one seen again after unknown figures starts now.
      since: zero ? (w.since ?? at) : null,
      accepted: zero && w.accepted,
      alertedSince: w.alertedSince,
      changes,
      flapping,
    };
  }
  return decideAll({ known: true, products }, context, at, rules);
}

function decideAll(state: NoFreeState, context: string, at: number, rules: AlertRules) {
  const products = dict<ProductWatch>();
  const alerts: AlertFacts[] = [];
  for (const [key, before] of Object.entries(state.products)) {
    let w = before;
    if (w.flapping !== null && at - w.flapping >= rules.flapWindowMs) w = { ...w, flapping: null };
    if (w.flapping === null) {
      if (w.free === 0 && w.alertedSince === null && !w.accepted && w.since !== null) {
        if (at - w.since >= rules.holdDownMs) {
          const words = {
            product: w.label,
            allocatable: w.allocatable,
            pending: w.pending,
            forMs: at - w.since,
            item: w.item,
          };
          alerts.push(facts(context, at, key, 'no-free-gpu', null, 0, noFreeText(context, words)));
          w = { ...w, alertedSince: w.since };
        }
      } else if (w.free > 0 && w.alertedSince !== null) {
        const text = freeBackText(context, w.label, w.free, at - w.alertedSince, w.item);
        alerts.push(facts(context, at, key, 'free-gpu-back', 0, w.free, text));
        w = { ...w, alertedSince: null };
      }
    }
    products[key] = w;
  }
  return { noFree: { known: state.known, products }, alerts };
}

function facts(
  context: string,
  at: number,
  about: string,
  kind: 'no-free-gpu' | 'free-gpu-back',
  before: number | null,
  after: number,
  text: ReturnType<typeof noFreeText>,
): AlertFacts {
  return { at, context, kind, nodes: [], before, after, about, ...text };
}

/** When a product's hold-down ends or its flapping may end; null when nothing waits. */
export function noFreeNextCheck(state: NoFreeState, rules: AlertRules): number | null {
  if (!state.known || !rules.noFreeGpu) return null;
  let min: number | null = null;
  for (const w of Object.values(state.products)) {
    let t: number | null = null;
    if (w.flapping !== null) t = w.flapping + rules.flapWindowMs;
    else if (w.free === 0 && w.alertedSince === null && !w.accepted && w.since !== null)
      t = w.since + rules.holdDownMs;
    if (t !== null && (min === null || t < min)) min = t;
  }
  return min;
}
