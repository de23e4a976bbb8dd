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
  let cont: string | null = null;
  let seen = new Set<string>();
  let pages = 0;
  const request = (token: string | null): Promise<unknown> => {
    const q = new URLSearchParams({ limit: String(o.pageSize) });
    if (token) q.set('continue', token);
    if (resource.fieldSelector) q.set('fieldSelector', resource.fieldSelector);
    return client.getJson(`${path}?${q}`, `listing ${plural}`, o.requestTimeoutMs);
  };
  // The next page's request, sent before this page's items are trimmed: the server's round trip
  // overlaps our work instead of following it.
  let ahead: Promise<unknown> | null = null;
  for (;;) {
    if (o.clock.now() - startedAt > deadlineMs) {
      throw new KubeError(
        'timeout',
        `Listing the ${plural} of ${host} took longer than ${Math.round(deadlineMs / 1000)} s; stopped.`,
      );
    }
    let page: unknown;
    try {
      page = await (ahead ?? request(cont));
    } catch (err) {
      ahead = null;
      if (err instanceof KubeError && err.kind === 'expired' && cont && restarts < MAX_RESTARTS) {
        restarts++;
        kept = [];
        items = 0;
        cont = null;
        seen = new Set();
        continue;
      }
      throw err;
    }
    ahead = null;
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
      cont = next;
      ahead = request(next);
      // Awaited at the top of the loop; a trim that throws first must not leave it unhandled.
      ahead.catch(() => undefined);
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
