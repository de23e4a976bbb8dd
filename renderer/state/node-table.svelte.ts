/**
 * The node table's controls (sort, filter, search, wide view); kept while the user switches views.
 * Private runes behind accessors, as every state class here: components bind to the accessors.
 */
import type { GpuNodeEntry } from '../../common/inventory.ts';
import { type NodeFilter, type SortKey, type SortSpec, selectNodes, updateRows } from '../lib/nodes.ts';

/** The last rows made, and from what: the next list of nodes usually differs from it in a few entries. */
interface Made {
  nodes: readonly GpuNodeEntry[];
  filter: NodeFilter;
  search: string;
  sort: SortSpec;
  rows: GpuNodeEntry[];
}

export class NodeTableState {
  #sort = $state.raw<SortSpec>({ key: 'name', dir: 'asc' });
  #filter = $state<NodeFilter>('all');
  #search = $state('');
  #wide = $state(false);
  /** Not reactive: a cache of what `rows` made last. */
  #made: Made | null = null;

  get current(): SortSpec {
    return this.#sort;
  }
  get filter(): NodeFilter {
    return this.#filter;
  }
  set filter(f: NodeFilter) {
    this.#filter = f;
  }
  get search(): string {
    return this.#search;
  }
  set search(s: string) {
    this.#search = s;
  }
  get wide(): boolean {
    return this.#wide;
  }
  set wide(w: boolean) {
    this.#wide = w;
  }

  /** Clicking the sorted column flips the direction; another column sorts ascending. */
  sortBy(key: SortKey): void {
    const s = this.#sort;
    this.#sort = s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' };
  }

  clear(): void {
    this.#filter = 'all';
    this.#search = '';
  }

  /**
   * The rows to show for `nodes`. After a delta only a few entries are new objects (applyDelta shares the
   * rest), so the last rows are updated in place of a sort when the controls are the same.
   */
  rows(nodes: readonly GpuNodeEntry[]): GpuNodeEntry[] {
    const filter = this.#filter;
    const search = this.#search;
    const sort = this.#sort;
    const m = this.#made;
    if (m && m.nodes === nodes && m.filter === filter && m.search === search && m.sort === sort)
      return m.rows;
    const same = m !== null && m.filter === filter && m.search === search && m.sort === sort;
    const rows =
      (same ? updateRows(m.nodes, m.rows, nodes, filter, search, sort) : null) ??
      selectNodes(nodes, filter, search, sort);
    this.#made = { nodes, filter, search, sort, rows };
    return rows;
  }
}
