/** Short words and numbers for the window, in its language: product names, ages, memory. */
import type { Translator } from '../../common/i18n/translator.ts';
import type { GpuNodeEntry } from '../../common/inventory.ts';
import { shortProduct } from '../../common/product-name.ts';

/** The window and the CLI share one product-name rule (common/product-name.ts). */
export { shortProduct };

/**
 * The product name in the window's language: shortProduct, with a `-SHARED` product's "(shared)" worded
 * in the language (`RTX 4090 (공유)`); the name itself is the cluster's label and kept as it is.
 */
export function productName(product: string, tr: Translator): string {
  const trimmed = product.trim();
  if (!/-SHARED$/i.test(trimmed)) return shortProduct(trimmed);
  return tr.t('freeGpus.labelShared', { product: shortProduct(trimmed.replace(/-SHARED$/i, '')) });
}

/** "last seen: RTX 4070 ×1" for a node whose labels vanished, or null when nothing was seen. */
export function lastSeenText(node: GpuNodeEntry, tr: Translator): string | null {
  const seen = node.last_seen;
  if (!seen) return null;
  const product = seen.product ? productName(seen.product, tr) : tr.t('node.gpu');
  return tr.t('node.lastSeen', { product, count: seen.count });
}

/** "RTX 4070 SUPER (from telemetry)": the model a DCGM exporter names for a node whose labels are gone. */
export function telemetryModelText(model: string, tr: Translator): string {
  return tr.t('node.fromTelemetry', { model: productName(model, tr) });
}

export function formatMemory(mib: number | null, tr: Translator): string {
  if (mib === null) return tr.t('common.none');
  return tr.t('node.memory', { mib });
}

/** A coarse age for people: "just now", "3 min", "2 h", "4 d". */
export function formatAge(ms: number, tr: Translator): string {
  if (!Number.isFinite(ms) || ms < 60_000) return tr.t('duration.justNow');
  return coarseMinutes(Math.floor(ms / 60_000), tr);
}

/** Whole minutes as "3 min", "2 h", "4 d". */
export function coarseMinutes(min: number, tr: Translator): string {
  if (min < 60) return tr.t('duration.min', { n: min });
  const h = Math.floor(min / 60);
  if (h < 48) return tr.t('duration.h', { n: h });
  return tr.t('duration.d', { n: Math.floor(h / 24) });
}

/** Age between an RFC 3339 time and now, or null when the time is missing or unreadable. */
export function ageSince(iso: string | null | undefined, now: number, tr: Translator): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return formatAge(now - t, tr);
}

/** "since 3 h" for a transition time, or null when the time is missing or unreadable. */
export function sinceText(iso: string | null | undefined, now: number, tr: Translator): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const ms = now - t;
  if (!Number.isFinite(ms) || ms < 60_000) return tr.t('node.sinceJustNow');
  return tr.t('node.since', { age: formatAge(ms, tr) });
}

/** Local date and time, stable across runs for the same input and zone. */
export function formatTime(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
}
