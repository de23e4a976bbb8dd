/** Short words and numbers for the window: product names, ages, memory, counts. */
import type { GpuNodeEntry } from '../../common/inventory.ts';
import { shortProduct } from '../../common/product-name.ts';

/** The window and the CLI share one product-name rule (common/product-name.ts). */
export { shortProduct };

/** "last seen: RTX 4070 ×1" for a node whose labels vanished, or null when nothing was seen. */
export function lastSeenText(node: GpuNodeEntry): string | null {
  const seen = node.last_seen;
  if (!seen) return null;
  const name = seen.product ? shortProduct(seen.product) : 'GPU';
  return `last seen: ${name} ×${seen.count}`;
}

export function formatMemory(mib: number | null): string {
  if (mib === null) return '—';
  return `${mib} MiB`;
}

/** A coarse age for people: "just now", "3 min", "2 h", "4 d". */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return 'just now';
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

/** Age between an RFC 3339 time and now, or null when the time is missing or unreadable. */
export function ageSince(iso: string | null | undefined, now: number): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return formatAge(now - t);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Local date and time, stable across runs for the same input and zone. */
export function formatTime(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
}
