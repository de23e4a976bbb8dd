/** Which view is open and which node to bring into sight (after a notification click, say). */

export type Tab = 'overview' | 'nodes' | 'history' | 'alerts' | 'settings';

export const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'nodes', label: 'Nodes' },
  { id: 'history', label: 'History' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'settings', label: 'Settings' },
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
