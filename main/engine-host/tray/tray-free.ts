/**
 * Pure: free GPUs in the tray. trayFree keeps of a context's figures only what the tray shows (per product
 * its label, free and allocatable, at most TRAY_PRODUCTS_MAX); freeMenu words the headline across every
 * context ("7 free GPUs: 3 × A30 MIG 1g.6gb (small-lab), …", cut to fit a menu line with "+N more") and a
 * submenu per product naming each cluster's share. A context whose figures are unknown is said to be
 * unknown, never counted as 0; a context where they are off is left out.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import type { ClusterFree, FreeUnknownReason } from '../../../common/free-gpus.ts';
import type { Translator } from '../../../common/i18n/translator.ts';
import type { TrayMenuItem } from '../../../common/tray-menu.ts';

export interface TrayFree {
  state: 'known' | 'unknown';
  reason: FreeUnknownReason | null;
  total: number;
  products: { label: string; free: number; allocatable: number }[];
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
    products: free.products
      .slice(0, TRAY_PRODUCTS_MAX)
      .map((p) => ({ label: p.label, free: p.free, allocatable: p.allocatable })),
  };
}

interface Item {
  context: string;
  label: string;
  free: number;
  allocatable: number;
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
    .flatMap((c) => (c.free?.products ?? []).map((p) => ({ context: c.context, ...p })))
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
  const word = (i: Item) =>
    tr.t('freeGpus.item', { count: i.free, product: i.label, context: clusterText(i.context, 40) });
  let shown = items.length;
  for (;;) {
    const parts = items.slice(0, shown).map(word);
    if (shown < items.length) parts.push(tr.t('freeGpus.more', { count: items.length - shown }));
    const line = tr.t('freeGpus.headline', { count: total, list: parts.join(', ') });
    if (line.length <= HEADLINE_MAX || shown <= 1) return line;
    shown--;
  }
}

function productSubmenus(items: readonly Item[], tr: Translator): TrayMenuItem[] {
  const byProduct = new Map<string, Item[]>();
  for (const i of items) byProduct.set(i.label, [...(byProduct.get(i.label) ?? []), i]);
  const groups = [...byProduct].slice(0, SUBMENUS_MAX);
  const out: TrayMenuItem[] = groups.map(([label, list]) => ({
    label: tr.t('freeGpus.product', { product: label, free: list.reduce((s, i) => s + i.free, 0) }),
    type: 'submenu',
    submenu: list.map((i) => ({
      label: tr.t('freeGpus.productContext', {
        context: clusterText(i.context, 60),
        free: i.free,
        allocatable: i.allocatable,
      }),
      enabled: false,
    })),
  }));
  if (byProduct.size > groups.length)
    out.push({ label: tr.t('freeGpus.more', { count: byProduct.size - groups.length }), enabled: false });
  return out;
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
