/**
 * The trimmed objects of one watched collection: one writer (apply() with the watcher's events) and a
 * read-only view, keyed by the resource's nameOf. `version` counts real changes only: an upsert the
 * resource calls the same as the cached object (for nodes: equal apart from the resourceVersion, since a
 * kubelet heartbeat touches fields we do not keep) is stored but does not count, so what is built from the
 * cache is not recomputed for it. A replace swaps the whole set in at once (a relist is never seen
 * half-applied).
 */
import type { WatchedResource } from './watched-resource.ts';

export type CacheEvent<T> =
  | { type: 'replace'; objects: T[] }
  | { type: 'upsert'; object: T }
  | { type: 'delete'; name: string };

export interface ObjectCacheView<T> {
  get(name: string): T | undefined;
  has(name: string): boolean;
  values(): IterableIterator<T>;
  readonly size: number;
  /** Bumps on every real change. */
  readonly version: number;
}

export class ObjectCache<T> {
  #objects = new Map<string, T>();
  #version = 0;
  readonly #nameOf: (object: T) => string;
  readonly #same: (a: T, b: T) => boolean;

  readonly view: ObjectCacheView<T>;

  constructor(resource: Pick<WatchedResource<T>, 'nameOf' | 'same'>) {
    this.#nameOf = resource.nameOf;
    this.#same = resource.same;
    const self = this;
    this.view = {
      get: (name) => self.#objects.get(name),
      has: (name) => self.#objects.has(name),
      values: () => self.#objects.values(),
      get size() {
        return self.#objects.size;
      },
      get version() {
        return self.#version;
      },
    };
  }

  /** The kept objects with their keys (for what is built alongside the cache, e.g. after a replace). */
  entries(): IterableIterator<[string, T]> {
    return this.#objects.entries();
  }

  /** Applies one watcher event; true when it changed what the cache holds (beyond what `same` ignores). */
  apply(ev: CacheEvent<T>): boolean {
    switch (ev.type) {
      case 'upsert': {
        const name = this.#nameOf(ev.object);
        const old = this.#objects.get(name);
        this.#objects.set(name, ev.object);
        return this.#changed(old === undefined || !this.#same(old, ev.object));
      }
      case 'delete':
        return this.#changed(this.#objects.delete(ev.name));
      case 'replace': {
        const next = new Map(ev.objects.map((o) => [this.#nameOf(o), o] as const));
        let changed = next.size !== this.#objects.size;
        for (const [name, o] of next) {
          if (changed) break;
          const old = this.#objects.get(name);
          changed = old === undefined || !this.#same(old, o);
        }
        this.#objects = next;
        return this.#changed(changed);
      }
    }
  }

  #changed(changed: boolean): boolean {
    if (changed) this.#version++;
    return changed;
  }
}
