/**
 * LIST one collection (the resource's path, e.g. /api/v1/nodes) in pages (limit + continue), trimming each
 * item as its page arrives so only what the resource's trim keeps is held. When a continue token expires (410) the list starts over: pages of one list are one
 * consistent snapshot, and mixing two snapshots could lose or duplicate objects.
 *
 * A server that never stops paging cannot hold the list forever: pages, items, the length of a continue
 * token and the time of the whole list (on the injected clock) are capped, and a continue token seen before
 * in the same list ends it at once. Each cap ends the list with a KubeError that says which in one sentence.
 */
import { isObj } from '../../common/json-guards.ts';
import type { Clock } from './clock.ts';
import type { ContextClient } from './context-client.ts';
import { KubeError } from './errors.ts';
import { continueInHead, LIST_HEAD_BYTES } from './list-head.ts';
import { sharedTurn } from './turns.ts';
import type { WatchedResource } from './watched-resource.ts';

export interface ListResult<T> {
  items: T[];
  resourceVersion: string;
  pages: number;
}

export interface ListOptions {
  pageSize: number;
  /** Time allowed for each page request. */
  requestTimeoutMs: number;
  clock: Clock;
  /** Time allowed for the whole list, all pages and restarts; default LIST_DEADLINE_MS. */
  deadlineMs?: number | undefined;
  isCancelled: () => boolean;
  /**
   * Ask for the next page as soon as this page's first bytes name its continue token (list-head.ts),
   * not after the whole page is parsed. For lists whose round trips are what they wait for: the CLI's,
   * and the engine's GPU pods (a page of 500 pods costs the server more than our parse); the node
   * watcher keeps the default (off).
   */
  eagerNext?: boolean;
}

const MAX_RESTARTS = 3;
/** 20× the largest clusters Kubernetes supports (5,000 nodes); items refused by trim count too. */
export const MAX_LIST_ITEMS = 100_000;
/** Enough for MAX_LIST_ITEMS at 100 a page twice over (a server may send short pages). */
export const MAX_LIST_PAGES = 2_000;
/** Real continue tokens are base64 of a small JSON object (well under 1 KB). */
export const MAX_CONTINUE_LENGTH = 4096;
/** 5,000 nodes take 50 pages; even at 2 s a page that is under 2 minutes. */
export const LIST_DEADLINE_MS = 5 * 60_000;

/** The words and path of the collection, and the trim each item goes through (null: refused, not kept). */
export type ListedResource<T> = Pick<
  WatchedResource<T>,
  'path' | 'singular' | 'plural' | 'trim' | 'fieldSelector' | 'maxItems'
>;

/** One page request in flight: the token it was sent with, and the token its head named, if any. */
interface Flight {
  token: string | null;
  res: Promise<unknown>;
  /** Set by the head peek (eager lists only) once the page's first bytes name the next token. */
  peeked: string | null;
  abort(): void;
}

export async function listObjects<T>(
  client: ContextClient,
  resource: ListedResource<T>,
  o: ListOptions,
): Promise<ListResult<T> | null> {
  const { path, singular, plural, trim } = resource;
  const maxItems = resource.maxItems ?? MAX_LIST_ITEMS;
  const host = new URL(client.server).host;
  const deadlineMs = o.deadlineMs ?? LIST_DEADLINE_MS;
  const startedAt = o.clock.now();
  let restarts = 0;
  let kept: T[] = [];
  let items = 0;
  let seen = new Set<string>();
  let pages = 0;
  // The page awaited next, and at most one more sent ahead of it.
  let current: Flight;
  let ahead = null as Flight | null;
  const send = (token: string | null): Flight => {
    const q = new URLSearchParams({ limit: String(o.pageSize) });
    if (token) q.set('continue', token);
    if (resource.fieldSelector) q.set('fieldSelector', resource.fieldSelector);
    const stop = new AbortController();
    const f: Flight = { token, res: Promise.resolve(null), peeked: null, abort: () => stop.abort() };
    const peek = o.eagerNext
      ? {
          bytes: LIST_HEAD_BYTES,
          read: (head: Buffer) => {
            f.peeked = continueInHead(head.toString('utf8'), MAX_CONTINUE_LENGTH);
            if (f === current) sendAhead();
          },
        }
      : undefined;
    f.res = client.getJson(`${path}?${q}`, `listing ${plural}`, o.requestTimeoutMs, {
      signal: stop.signal,
      ...(peek ? { peek } : {}),
    });
    // Awaited in the loop unless dropped; a dropped or not yet awaited one must not be left unhandled.
    f.res.catch(() => undefined);
    return f;
  };
  // Eager lists: the next page is asked for as soon as the current page's head names its token, so the
  // server prepares it while this page is still arriving and being parsed (one page ahead at most).
  const sendAhead = () => {
    const next = current.peeked;
    if (ahead !== null || next === null || seen.has(next) || pages + 1 >= MAX_LIST_PAGES) return;
    ahead = send(next);
  };
  current = send(null);
  try {
    for (;;) {
      if (o.clock.now() - startedAt > deadlineMs) {
        throw new KubeError(
          'timeout',
          `Listing the ${plural} of ${host} took longer than ${Math.round(deadlineMs / 1000)} s; stopped.`,
        );
      }
      let page: unknown;
      try {
        page = await current.res;
      } catch (err) {
        if (err instanceof KubeError && err.kind === 'expired' && current.token && restarts < MAX_RESTARTS) {
          restarts++;
          kept = [];
          items = 0;
          seen = new Set();
          ahead?.abort();
          ahead = null;
          current = send(null);
          continue;
        }
        throw err;
      }
      if (o.isCancelled()) return null;
      pages++;
      const { items: raw, resourceVersion, next } = readPage(page, host, singular);
      items += raw.length;
      if (items > maxItems) {
        throw new KubeError('server', `${host} listed more than ${maxItems} ${plural}; stopped listing.`);
      }
      if (next) {
        if (seen.has(next)) {
          throw new KubeError(
            'protocol',
            `${host} sent the same continue token twice while listing ${plural}.`,
          );
        }
        if (pages >= MAX_LIST_PAGES) {
          throw new KubeError(
            'protocol',
            `${host} kept paging the ${singular} list past ${MAX_LIST_PAGES} pages; stopped listing.`,
          );
        }
        seen.add(next);
        // A page sent ahead is kept only when the whole page named the token its head did.
        if (ahead?.token !== next) {
          ahead?.abort();
          ahead = null;
        }
        // The next page's request goes out (if it has not yet) before this page's items are trimmed:
        // the server's round trip overlaps our work instead of following it.
        current = ahead ?? send(next);
        ahead = null;
        sendAhead();
      } else {
        ahead?.abort();
        ahead = null;
      }
      // A page's trim in a turn of its own: pages of several lists that arrive together are not all
      // parsed and trimmed in one turn (turns.ts).
      await sharedTurn();
      if (o.isCancelled()) return null;
      for (const r of raw) {
        const item = trim(r);
        if (item !== null) kept.push(item);
      }
      if (!next) return { items: kept, resourceVersion, pages };
    }
  } finally {
    // A list that ends early (cancelled, an error, a cap) leaves no request of its own in flight.
    current.abort();
    ahead?.abort();
  }
}

function readPage(
  page: unknown,
  host: string,
  singular: string,
): { items: unknown[]; resourceVersion: string; next: string | null } {
  const meta = isObj(page) ? page.metadata : null;
  const items = isObj(page) ? page.items : null;
  const rv = isObj(meta) ? meta.resourceVersion : null;
  if (!Array.isArray(items) && items !== null) throw notAList(host, singular);
  if (typeof rv !== 'string' || rv === '' || rv.length > 64) throw notAList(host, singular);
  const c = isObj(meta) ? meta.continue : null;
  const next = typeof c === 'string' && c !== '' ? c : null;
  if (next !== null && next.length > MAX_CONTINUE_LENGTH) throw notAList(host, singular);
  return { items: items ?? [], resourceVersion: rv, next };
}

function notAList(host: string, singular: string): KubeError {
  return new KubeError(
    'protocol',
    `${host} did not answer the ${singular} list like a Kubernetes API server.`,
  );
}
