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

/** The rows to show: filtered, searched, then sorted (missing values last in both directions). */
export function selectNodes(
  nodes: readonly GpuNodeEntry[],
  filter: NodeFilter,
  search: string,
  sort: SortSpec,
): GpuNodeEntry[] {
  const needle = search.trim().toLowerCase();
  const keep = FILTERS[filter];
  const rows = nodes.filter((n) => keep(n) && (needle === '' || matches(n, needle)));
  const value = VALUES[sort.key];
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return compareValues(va, vb) || collator.compare(a.name, b.name);
    return sign * compareValues(va, vb) || collator.compare(a.name, b.name);
  });
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
