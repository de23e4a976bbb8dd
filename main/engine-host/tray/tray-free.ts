/**
 * Pure: free GPUs in the tray. trayFree keeps of a context's figures only what the tray shows (per product
 * its label, free and allocatable, at most TRAY_PRODUCTS_MAX); freeMenu words the headline across every
 * context ("7 free GPUs: 3 × A30 MIG 1g.6gb (small-lab), …", cut to fit a menu line with "+N more") and a
 * submenu per product naming each cluster's share. A context whose figures are unknown is said to be
 * unknown, never counted as 0; a context where they are off is left out. Products are worded from their
 * facts in the tray's language (common/free-product-text.ts), shared replicas say how many GPUs they
 * share, and figures that are last known (stale) or the in-cluster controller's are marked so.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import {
  type ClusterFree,
  type FreeUnknownReason,
  knownProducts,
  type SlotKind,
} from '../../../common/free-gpus.ts';
import { productText, replicasText } from '../../../common/free-product-text.ts';
import type { Translator } from '../../../common/i18n/translator.ts';
import type { TrayMenuItem } from '../../../common/tray-menu.ts';

export interface TrayProduct {
  /** The English label: the key products are grouped by across contexts. */
  label: string;
  product: string | null;
  kind: SlotKind;
  profile: string | null;
  free: number;
  allocatable: number;
  capacity: number;
  /** Shared replicas: the physical GPUs they share, when known. */
  physical: number | null;
}

export interface TrayFree {
  state: 'known' | 'unknown';
  reason: FreeUnknownReason | null;
  total: number;
  /** Last known figures (the pods watch reconnecting, or the controller's mark old). */
  stale: boolean;
  /** Read from the in-cluster controller's status rather than the app's own pods watch. */
  source: 'controller' | null;
  products: TrayProduct[];
}

/** Products kept per context for the tray; the headline and submenus need no more. */
export const TRAY_PRODUCTS_MAX = 12;
/** A menu line is cut past this many characters (with "+N more"). */
export const HEADLINE_MAX = 80;
const SUBMENUS_MAX = 8;

export function trayFree(free: ClusterFree): TrayFree {
  return {
    state: free.state,
    reason: free.reason,
    total: free.free_total ?? 0,
    stale: free.stale,
    source: free.source ?? null,
    products: knownProducts(free)
      .slice(0, TRAY_PRODUCTS_MAX)
      .map((p) => ({
        label: p.label,
        product: p.product,
        kind: p.kind,
        profile: p.profile,
        free: p.free,
        allocatable: p.allocatable,
        capacity: p.capacity,
        physical: p.physical ?? null,
      })),
  };
}

interface Item extends TrayProduct {
  context: string;
  stale: boolean;
  source: 'controller' | null;
}

/** The headline and a submenu per product, or null when no context has free-GPU figures to show. */
export function freeMenu(
  contexts: readonly { context: string; free: TrayFree | null }[],
  tr: Translator,
): TrayMenuItem | null {
  const counted = contexts.filter((c) => c.free === null || c.free.reason !== 'off');
  if (counted.length === 0 || counted.every((c) => c.free === null)) return null;
  const known = counted.filter((c) => c.free?.state === 'known');
  const unknown = counted.filter((c) => c.free?.state !== 'known');
  const items: Item[] = known
    .flatMap((c) =>
      (c.free?.products ?? []).map((p) => ({
        context: c.context,
        stale: c.free?.stale === true,
        source: c.free?.source ?? null,
        ...p,
      })),
    )
    .sort((a, b) => b.free - a.free || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const total = known.reduce((s, c) => s + (c.free?.total ?? 0), 0);
  let headline: string;
  if (known.length === 0) headline = tr.t('freeGpus.headlineUnknown');
  else if (total === 0) headline = tr.t('freeGpus.headlineNone');
  else
    headline = fitted(
      total,
      items.filter((i) => i.free > 0),
      tr,
    );
  if (known.length > 0 && unknown.length > 0)
    headline = tr.t('freeGpus.partial', {
      headline,
      unknown: tr.t('freeGpus.someUnknown', { count: unknown.length }),
    });
  return {
    label: clusterText(headline, HEADLINE_MAX + 40),
    type: 'submenu',
    submenu: [...productSubmenus(items, tr), ...unknown.map((c) => unknownLine(c, tr))],
  };
}

/** The longest list of "N × product (context)" that fits the line, then "+N more". */
function fitted(total: number, items: readonly Item[], tr: Translator): string {
  const word = (i: Item) => {
    const text = tr.t('freeGpus.item', {
      count: i.free,
      product: productText(i, tr),
      context: clusterText(i.context, 40),
    });
    return i.stale ? tr.t('freeGpus.staleMark', { text }) : text;
  };
  let shown = items.length;
  for (;;) {
    const parts = items.slice(0, shown).map(word);
    if (shown < items.length) parts.push(tr.t('freeGpus.more', { count: items.length - shown }));
    const line = tr.t('freeGpus.headline', { count: total, list: parts.join(tr.t('common.listSeparator')) });
    if (line.length <= HEADLINE_MAX || shown <= 1) return line;
    shown--;
  }
}

function productSubmenus(items: readonly Item[], tr: Translator): TrayMenuItem[] {
  const byProduct = new Map<string, Item[]>();
  for (const i of items) byProduct.set(i.label, [...(byProduct.get(i.label) ?? []), i]);
  const groups = [...byProduct].slice(0, SUBMENUS_MAX);
  const out: TrayMenuItem[] = groups.map(([, list]) => ({
    label: tr.t('freeGpus.product', {
      product: productText(list[0] as Item, tr),
      free: list.reduce((s, i) => s + i.free, 0),
    }),
    type: 'submenu',
    submenu: list.map((i) => ({ label: contextLine(i, tr), enabled: false })),
  }));
  if (byProduct.size > groups.length)
    out.push({ label: tr.t('freeGpus.more', { count: byProduct.size - groups.length }), enabled: false });
  return out;
}

/** One cluster's share of a product: its free of allocatable, the replicas' GPUs, and its marks. */
function contextLine(i: Item, tr: Translator): string {
  let text = tr.t('freeGpus.productContext', {
    context: clusterText(i.context, 60),
    free: i.free,
    allocatable: i.allocatable,
  });
  const replicas = replicasText(i, tr);
  if (replicas !== null) text = tr.t('freeGpus.withReplicas', { text, replicas });
  if (i.source === 'controller') text = tr.t('freeGpus.controllerMark', { text });
  return i.stale ? tr.t('freeGpus.staleMark', { text }) : text;
}

function unknownLine(c: { context: string; free: TrayFree | null }, tr: Translator): TrayMenuItem {
  const reason = c.free?.reason ?? 'listing';
  return {
    label: tr.t('freeGpus.contextUnknown', {
      context: clusterText(c.context, 60),
      reason: tr.t(`freeGpus.reason.${reason}`),
    }),
    enabled: false,
  };
}
