// The object store: one global resourceVersion counter, per-resource maps, a bounded event history.
import type { KObj } from './types.ts';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  rv: number;
  type: EventType;
  skey: string;
  key: string;
  obj: KObj;
  prev?: KObj;
}

export type Snapshot = KObj[] | 'expired' | 'future';

export class Store {
  rv: number;
  compactedRv: number;
  private readonly data = new Map<string, Map<string, KObj>>();
  private readonly sorted = new Map<string, string[]>();
  private history: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private readonly snapshots = new Map<string, KObj[]>();

  constructor(
    public window: number,
    startRv = 1000,
  ) {
    this.rv = startRv;
    this.compactedRv = startRv;
  }

  private bucket(skey: string): Map<string, KObj> {
    let m = this.data.get(skey);
    if (!m) {
      m = new Map();
      this.data.set(skey, m);
    }
    return m;
  }

  get(skey: string, key: string): KObj | undefined {
    return this.data.get(skey)?.get(key);
  }

  keys(skey: string): string[] {
    let s = this.sorted.get(skey);
    if (!s) {
      s = [...this.bucket(skey).keys()].sort();
      this.sorted.set(skey, s);
    }
    return s;
  }

  list(skey: string): KObj[] {
    const m = this.bucket(skey);
    return this.keys(skey).map((k) => m.get(k) as KObj);
  }

  count(skey: string): number {
    return this.bucket(skey).size;
  }

  /** Stores obj (a fresh object owned by the store from now on) with a new resourceVersion. */
  put(skey: string, key: string, obj: KObj): KObj {
    const m = this.bucket(skey);
    const prev = m.get(key);
    this.rv += 1;
    obj.metadata.resourceVersion = String(this.rv);
    if (!prev) this.sorted.delete(skey);
    m.set(key, obj);
    this.emit({ rv: this.rv, type: prev ? 'MODIFIED' : 'ADDED', skey, key, obj, prev });
    return obj;
  }

  remove(skey: string, key: string): KObj | undefined {
    const m = this.bucket(skey);
    const prev = m.get(key);
    if (!prev) return undefined;
    this.rv += 1;
    m.delete(key);
    this.sorted.delete(skey);
    const obj: KObj = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(this.rv) } };
    this.emit({ rv: this.rv, type: 'DELETED', skey, key, obj, prev });
    return obj;
  }

  private emit(e: StoreEvent): void {
    this.history.push(e);
    if (this.history.length > this.window + 256) {
      const drop = this.history.length - this.window;
      this.compactedRv = (this.history[drop - 1] as StoreEvent).rv;
      this.history = this.history.slice(drop);
    }
    for (const l of this.listeners) l(e);
  }

  subscribe(fn: (e: StoreEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Events of one resource newer than rv, or 'expired' when rv is older than the kept window. */
  eventsSince(skey: string, rv: number): StoreEvent[] | 'expired' {
    if (rv < this.compactedRv) return 'expired';
    return this.history.filter((e) => e.rv > rv && e.skey === skey);
  }

  /** The sorted list of one resource as it was at rv. */
  snapshot(skey: string, rv: number): Snapshot {
    if (rv > this.rv) return 'future';
    if (rv < this.compactedRv) return 'expired';
    const id = `${skey}@${rv}`;
    const cached = this.snapshots.get(id);
    if (cached) return cached;
    let items: KObj[];
    if (rv === this.rv) items = this.list(skey);
    else {
      const m = new Map(this.bucket(skey));
      for (let i = this.history.length - 1; i >= 0; i--) {
        const e = this.history[i] as StoreEvent;
        if (e.rv <= rv) break;
        if (e.skey !== skey) continue;
        if (e.prev) m.set(e.key, e.prev);
        else m.delete(e.key);
      }
      items = [...m.keys()].sort().map((k) => m.get(k) as KObj);
    }
    this.snapshots.set(id, items);
    if (this.snapshots.size > 8) this.snapshots.delete(this.snapshots.keys().next().value as string);
    return items;
  }

  /** Forget all history: every older resourceVersion now answers 410 Expired. */
  compact(): void {
    this.history = [];
    this.compactedRv = this.rv;
    this.snapshots.clear();
  }

  dropResource(skey: string): void {
    this.data.delete(skey);
    this.sorted.delete(skey);
  }
}
