/**
 * The trimmed nodes of one context: one writer (apply() with the watcher's events) and a read-only view.
 * `version` counts real changes only: an upsert equal to the cached node apart from its resourceVersion
 * (a kubelet heartbeat touches fields we do not keep) is stored but does not count, so the inventory is not
 * recomputed for it. A replace swaps the whole set in at once (a relist is never seen half-applied).
 */

import { jsonEqual } from '../inventory/json-equal.ts';
import type { NodeFacts } from '../inventory/node-facts.ts';

export type CacheEvent =
  | { type: 'replace'; nodes: NodeFacts[] }
  | { type: 'upsert'; node: NodeFacts }
  | { type: 'delete'; name: string };

export interface NodeCacheView {
  get(name: string): NodeFacts | undefined;
  has(name: string): boolean;
  values(): IterableIterator<NodeFacts>;
  readonly size: number;
  /** Bumps on every real change. */
  readonly version: number;
}

function sameFacts(a: NodeFacts, b: NodeFacts): boolean {
  return jsonEqual({ ...a, resourceVersion: '' }, { ...b, resourceVersion: '' });
}

export class NodeCache {
  #nodes = new Map<string, NodeFacts>();
  #version = 0;

  readonly view: NodeCacheView;

  constructor() {
    const self = this;
    this.view = {
      get: (name) => self.#nodes.get(name),
      has: (name) => self.#nodes.has(name),
      values: () => self.#nodes.values(),
      get size() {
        return self.#nodes.size;
      },
      get version() {
        return self.#version;
      },
    };
  }

  /** Applies one watcher event; true when it changed what the cache holds (beyond resourceVersions). */
  apply(ev: CacheEvent): boolean {
    switch (ev.type) {
      case 'upsert': {
        const old = this.#nodes.get(ev.node.name);
        this.#nodes.set(ev.node.name, ev.node);
        return this.#changed(!old || !sameFacts(old, ev.node));
      }
      case 'delete':
        return this.#changed(this.#nodes.delete(ev.name));
      case 'replace': {
        const next = new Map(ev.nodes.map((n) => [n.name, n] as const));
        let changed = next.size !== this.#nodes.size;
        for (const [name, n] of next) {
          if (changed) break;
          const old = this.#nodes.get(name);
          changed = !old || !sameFacts(old, n);
        }
        this.#nodes = next;
        return this.#changed(changed);
      }
    }
  }

  #changed(changed: boolean): boolean {
    if (changed) this.#version++;
    return changed;
  }
}
