/** Which view is open and which node to bring into sight (after a notification click, say). */
import type { MessageKey } from '../../common/i18n/catalog-types.ts';

export type Tab = 'overview' | 'nodes' | 'history' | 'alerts' | 'capacity' | 'settings';

export const TABS: readonly { id: Tab; label: MessageKey }[] = [
  { id: 'overview', label: 'tabs.overview' },
  { id: 'nodes', label: 'tabs.nodes' },
  { id: 'history', label: 'tabs.history' },
  { id: 'alerts', label: 'tabs.alerts' },
  { id: 'capacity', label: 'freeGpus.tab' },
  { id: 'settings', label: 'tabs.settings' },
];

export interface Highlight {
  context: string;
  node: string;
  /** Changes on every request, so asking twice for the same node scrolls again. */
  seq: number;
}

export class ViewState {
  #tab = $state<Tab>('overview');
  #highlight = $state.raw<Highlight | null>(null);
  #seq = 0;

  get current(): Tab {
    return this.#tab;
  }

  get highlight(): Highlight | null {
    return this.#highlight;
  }

  open(tab: Tab): void {
    this.#tab = tab;
  }

  /** Opens the node table on `node` of `context`. */
  showNode(context: string, node: string): void {
    this.#highlight = { context, node, seq: ++this.#seq };
    this.#tab = 'nodes';
  }
}
