// Watch streams: replay from a resourceVersion, live events, selector enter/leave, bookmarks, 410 ERROR.
import type { Core } from './core.ts';
import { optionsInvalid, statusBody } from './errors.ts';
import type { Ctx } from './http.ts';
import { matcherFor, parseRv } from './read.ts';
import { objectJson } from './serialize.ts';
import type { StoreEvent } from './store.ts';
import type { KObj, ResourceDef } from './types.ts';
import { apiVersionOf, presented, storeKey } from './types.ts';

const EMPTY_NODE_STATUS =
  '"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},"nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"","osImage":"","containerRuntimeVersion":"","kubeletVersion":"","kubeProxyVersion":"","operatingSystem":"","architecture":""}}';

function bookmark(def: ResourceDef, rv: number): string {
  const head = `{"kind":${JSON.stringify(def.kind)},"apiVersion":${JSON.stringify(apiVersionOf(def))}`;
  if (!def.builtin) return `${head},"metadata":{"resourceVersion":"${rv}"}}`;
  const meta = `"metadata":{"resourceVersion":"${rv}","creationTimestamp":null}`;
  return def.resource === 'nodes' ? `${head},${meta},${EMPTY_NODE_STATUS}}` : `${head},${meta}}`;
}

function line(type: string, objJson: string): string {
  return `{"type":"${type}","object":${objJson}}\n`;
}

function withRv(o: KObj, rv: number): string {
  return objectJson({ ...o, metadata: { ...o.metadata, resourceVersion: String(rv) } } as KObj);
}

export function watch(core: Core, ctx: Ctx, def: ResourceDef, namespace: string, name: string): void {
  const q = ctx.query;
  if (q.get('sendInitialEvents') !== null) {
    throw optionsInvalid(
      'ListOptions',
      'sendInitialEvents',
      'FieldValueForbidden',
      'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    );
  }
  if (q.get('resourceVersionMatch')) {
    throw optionsInvalid(
      'ListOptions',
      'resourceVersionMatch',
      'FieldValueForbidden',
      'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  }
  const sel = matcherFor(core, ctx, def, namespace);
  const matches = (o: KObj | undefined) => o !== undefined && (!name || o.metadata.name === name) && sel(o);
  const rvParam = q.get('resourceVersion');
  const fromRv = rvParam && rvParam !== '0' ? parseRv(rvParam) : undefined;
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  const pending: string[] = [];
  const send = (s: string) => {
    if (core.stalled) pending.push(s);
    else if (!res.writableEnded && !res.destroyed) res.write(s);
  };
  const skey = storeKey(def);
  const json = (o: KObj) => objectJson(presented(def, o));
  const toLine = (e: StoreEvent): string | undefined => {
    if (e.type === 'DELETED') return matches(e.obj) ? line('DELETED', json(e.obj)) : undefined;
    const was = matches(e.prev);
    const is = matches(e.obj);
    if (is) return line(was ? 'MODIFIED' : 'ADDED', json(e.obj));
    return was && e.prev ? line('DELETED', withRv(presented(def, e.prev), e.rv)) : undefined;
  };
  if (fromRv === undefined) {
    for (const o of core.store.list(skey)) if (matches(o)) send(line('ADDED', json(o)));
  } else {
    const past = core.store.eventsSince(skey, fromRv);
    if (past === 'expired') {
      const err = statusBody(
        410,
        `too old resource version: ${fromRv} (${core.store.compactedRv})`,
        'Expired',
      );
      res.end(line('ERROR', JSON.stringify(err)));
      return;
    }
    for (const e of past) {
      const l = toLine(e);
      if (l) send(l);
    }
  }
  const minRv = fromRv ?? 0;
  const unsubscribe = core.store.subscribe((e) => {
    if (e.skey !== skey || e.rv <= minRv) return;
    const l = toLine(e);
    if (l) send(l);
  });
  const timers: NodeJS.Timeout[] = [];
  const bookmarks = q.get('allowWatchBookmarks') === 'true' || q.get('allowWatchBookmarks') === '1';
  const sendBookmark = () => {
    if (!core.stalled && !res.writableEnded && !res.destroyed)
      res.write(line('BOOKMARK', bookmark(def, core.store.rv)));
  };
  if (bookmarks) timers.push(setInterval(sendBookmark, core.options.bookmarkIntervalMs));
  const timeout = Number(q.get('timeoutSeconds') ?? 0);
  const timeoutMs = timeout > 0 ? timeout * 1000 : (1800 + Math.floor(Math.random() * 1800)) * 1000;
  if (bookmarks && timeoutMs > 1000) timers.push(setTimeout(sendBookmark, Math.max(500, timeoutMs - 1500)));
  timers.push(setTimeout(() => res.end(), timeoutMs));
  const flush = () => {
    if (pending.length > 0 && !res.writableEnded && !res.destroyed) res.write(pending.splice(0).join(''));
  };
  core.onUnstall.add(flush);
  const cleanup = () => {
    core.onUnstall.delete(flush);
    unsubscribe();
    for (const t of timers) clearTimeout(t);
  };
  res.on('close', cleanup);
  res.on('finish', cleanup);
}
