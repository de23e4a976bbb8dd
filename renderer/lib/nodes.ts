/** Filtering, searching and sorting the node table: pure, so 5,000 rows are cheap to test. */
import type { MessageKey } from '../../common/i18n/catalog-types.ts';
import type { GpuNodeEntry } from '../../common/inventory.ts';

export type NodeFilter = 'all' | 'not-ready' | 'unlabeled' | 'problems';
export type SortKey =
  | 'name'
  | 'ready'
  | 'product'
  | 'count'
  | 'memory'
  | 'workload'
  | 'readiness'
  | 'allocatable'
  | 'mig'
  | 'sharing'
  | 'cordoned'
  | 'problems';
export type SortDir = 'asc' | 'desc';
export interface SortSpec {
  key: SortKey;
  dir: SortDir;
}

export const FILTER_LABELS: Readonly<Record<NodeFilter, MessageKey>> = {
  all: 'table.filter.all',
  'not-ready': 'table.filter.notReady',
  unlabeled: 'table.filter.unlabeled',
  problems: 'table.filter.problems',
};

const FILTERS: Record<NodeFilter, (n: GpuNodeEntry) => boolean> = {
  all: () => true,
  'not-ready': (n) => !n.ready,
  unlabeled: (n) => n.product === null,
  problems: (n) => (n.problems?.length ?? 0) > 0,
};

type SortValue = string | number | null;
const VALUES: Record<SortKey, (n: GpuNodeEntry) => SortValue> = {
  name: (n) => n.name,
  ready: (n) => (n.ready ? 1 : 0),
  product: (n) => n.product,
  count: (n) => n.count,
  memory: (n) => n.memory,
  workload: (n) => n.workload,
  readiness: (n) => n.not_ready_since ?? null,
  allocatable: (n) => n.allocatable_gpus ?? null,
  mig: (n) => n.mig?.strategy ?? null,
  sharing: (n) => n.sharing?.replicas ?? null,
  cordoned: (n) => (n.cordoned ? 1 : 0),
  problems: (n) => n.problems?.length ?? 0,
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

function matches(n: GpuNodeEntry, needle: string): boolean {
  return (
    n.name.toLowerCase().includes(needle) ||
    (n.product?.toLowerCase().includes(needle) ?? false) ||
    (n.workload?.toLowerCase().includes(needle) ?? false) ||
    (n.last_seen?.product?.toLowerCase().includes(needle) ?? false)
  );
}

/**
 * The order of the table: by the sort key (missing values last in both directions), then by name as
 * people read it, then by the name's bytes, so two distinct names never tie (an incremental update must
 * find one place for a row, the place a full sort gives it).
 */
export function compareNodes(sort: SortSpec): (a: GpuNodeEntry, b: GpuNodeEntry) => number {
  const value = VALUES[sort.key];
  const sign = sort.dir === 'asc' ? 1 : -1;
  return (a, b) => {
    const va = value(a);
    const vb = value(b);
    const byValue = va === null || vb === null ? compareValues(va, vb) : sign * compareValues(va, vb);
    return byValue || collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  };
}

function keeper(filter: NodeFilter, search: string): (n: GpuNodeEntry) => boolean {
  const needle = search.trim().toLowerCase();
  const keep = FILTERS[filter];
  return (n) => keep(n) && (needle === '' || matches(n, needle));
}

/** The rows to show: filtered, searched, then sorted (compareNodes). */
export function selectNodes(
  nodes: readonly GpuNodeEntry[],
  filter: NodeFilter,
  search: string,
  sort: SortSpec,
): GpuNodeEntry[] {
  return nodes.filter(keeper(filter, search)).sort(compareNodes(sort));
}

/** Past this many changed entries, sorting again is as cheap as placing each one. */
const INCREMENTAL_MAX = 64;

/**
 * `selectNodes(next, …)` computed from `rows`, the result of `selectNodes(prev, …)` with the same filter,
 * search and sort: entries of `prev` that are not in `next` (by identity) leave, entries of `next` that
 * are not in `prev` go in at their place, found by binary search. Proportional to the change plus two
 * passes over the list, not a sort of it. Null when that would not be cheaper or not exact (many changes,
 * an entry listed twice, two entries that compare equal: a full sort decides those by input order).
 */
export function updateRows(
  prev: readonly GpuNodeEntry[],
  rows: readonly GpuNodeEntry[],
  next: readonly GpuNodeEntry[],
  filter: NodeFilter,
  search: string,
  sort: SortSpec,
): GpuNodeEntry[] | null {
  const before = new Set(prev);
  const after = new Set(next);
  if (before.size !== prev.length || after.size !== next.length) return null;
  const coming: GpuNodeEntry[] = [];
  for (const n of next) {
    if (before.has(n)) continue;
    coming.push(n);
    if (coming.length > INCREMENTAL_MAX) return null;
  }
  let leaving = 0;
  for (const n of prev) if (!after.has(n) && ++leaving > INCREMENTAL_MAX) return null;
  const out = leaving === 0 ? [...rows] : rows.filter((n) => after.has(n));
  const keep = keeper(filter, search);
  const cmp = compareNodes(sort);
  for (const n of coming) {
    if (!keep(n)) continue;
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(out[mid] as GpuNodeEntry, n) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < out.length && cmp(out[lo] as GpuNodeEntry, n) === 0) return null;
    out.splice(lo, 0, n);
  }
  return out;
}

/** Which slice of `total` rows a viewport shows, with some rows of slack above and below. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  total: number,
  overscan = 6,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const count = Math.ceil(viewportHeight / rowHeight);
  const start = Math.max(0, Math.min(first - overscan, total));
  const end = Math.min(total, first + count + overscan);
  return { start, end: Math.max(start, end) };
}
