/**
 * What the list+watch machinery (list-pages.ts, watch-stream.ts, list-watcher.ts, object-cache.ts) is told
 * about the one kind of object it follows, by the caller that knows that kind: where the collection lives,
 * the words for it in sentences, and how to turn the API's raw JSON into what is kept. The machinery itself
 * knows nothing of what the objects mean (as kube-rs's watcher is generic over its Resource).
 */
export interface WatchedResource<T> {
  /** The collection's path, e.g. `/api/v1/nodes` (no query). */
  readonly path: string;
  /** Narrows list and watch to matching objects (e.g. `metadata.name=cluster` to follow one object). */
  readonly fieldSelector?: string;
  /** One object and several, as sentences name them: `node`, `nodes`. */
  readonly singular: string;
  readonly plural: string;
  /** Validates one raw object and keeps only what the caller needs; null refuses it (it is never cached). */
  readonly trim: (raw: unknown) => T | null;
  /** The object's name: its key in the cache. */
  readonly nameOf: (object: T) => string;
  /**
   * The cache key of a raw object's metadata, for DELETED events (which are not trimmed); the name when
   * absent. Namespaced objects are keyed `namespace/name`.
   */
  readonly keyOfMeta?: (metadata: Record<string, unknown>) => string | null;
  /**
   * Objects the caller does not want at all (e.g. pods that request no GPU): not kept and, unlike what
   * trim refuses, not counted as refused. Checked before trim.
   */
  readonly skip?: (raw: unknown) => boolean;
  /** Items one list may hold before it is refused as too large (list-pages.ts MAX_LIST_ITEMS by default). */
  readonly maxItems?: number;
  /**
   * True when `b` says nothing new over `a` (e.g. only its resourceVersion moved): the cache stores it but
   * does not count it as a change.
   */
  readonly same: (a: T, b: T) => boolean;
}
