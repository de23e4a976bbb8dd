/**
 * The node table's controls (sort, filter, search, wide view); kept while the user switches views.
 * Private runes behind accessors, as every state class here: components bind to the accessors.
 */
import type { GpuNodeEntry } from '../../common/inventory.ts';
import { type NodeFilter, type SortKey, type SortSpec, selectNodes } from '../lib/nodes.ts';

export class NodeTableState {
  #sort = $state.raw<SortSpec>({ key: 'name', dir: 'asc' });
  #filter = $state<NodeFilter>('all');
  #search = $state('');
  #wide = $state(false);

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

  rows(nodes: readonly GpuNodeEntry[]): GpuNodeEntry[] {
    return selectNodes(nodes, this.#filter, this.#search, this.#sort);
  }
}
