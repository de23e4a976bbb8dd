/**
 * The uid of each context's `kube-system` namespace, where its user may read it: the second key by which
 * contexts are one cluster (kube/cluster-identity.ts), for addresses that differ (127.0.0.1 and ::1, a
 * load balancer and a node). One GET per context (`/api/v1/namespaces/kube-system`, 10 s, a few at a
 * time); forbidden, failing or an answer without a plausible uid is simply no uid: the context is then
 * grouped by server and CA only, and nothing reaches its card or the log above debug. A failure is tried
 * again after RETRY_MS, at the next setContexts. A uid is kept while the context's settings stay the same.
 */
import { isObj } from '../../common/json-guards.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { contextFingerprint } from '../kube/fingerprint.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';

export const KUBE_SYSTEM_PATH = '/api/v1/namespaces/kube-system';
export const UID_TIMEOUT_MS = 10_000;
/** Reads in flight at once (a kubeconfig of 100 contexts does not open 100 connections at start). */
export const UID_CONCURRENCY = 4;
export const RETRY_MS = 10 * 60_000;

/** A Kubernetes uid is a UUID; anything else a server sends is no uid (and never shown anywhere). */
const UID = /^[0-9A-Za-z-]{8,64}$/;

export function namespaceUid(body: unknown): string | null {
  if (!isObj(body) || !isObj(body.metadata)) return null;
  const uid = body.metadata.uid;
  return typeof uid === 'string' && UID.test(uid) ? uid : null;
}

interface Probe {
  uid: string | null;
  /** When the read ended (null while it runs or waits its turn). */
  doneAt: number | null;
}

export interface ClusterUidsOptions {
  clock: Clock;
  makeClient: (ctx: ResolvedContext) => ContextClient;
  /** A uid became known: the grouping may change. */
  changed: () => void;
  debug?: (context: string, line: string) => void;
}

export class ClusterUids {
  readonly #o: ClusterUidsOptions;
  readonly #probes = new Map<string, Probe>();
  readonly #queue: { key: string; ctx: ResolvedContext }[] = [];
  #running = 0;
  #stopped = false;

  constructor(options: ClusterUidsOptions) {
    this.#o = options;
  }

  /** The uid read for this context, or null (not read yet, not allowed, failed). */
  uidOf(ctx: ResolvedContext): string | null {
    return this.#probes.get(contextFingerprint(ctx))?.uid ?? null;
  }

  /** Reads the uids of these contexts not read yet (or failed more than RETRY_MS ago); forgets the rest. */
  want(contexts: readonly ResolvedContext[]): void {
    if (this.#stopped) return;
    const now = this.#o.clock.now();
    const keys = new Map(contexts.map((c) => [contextFingerprint(c), c]));
    for (const key of this.#probes.keys()) if (!keys.has(key)) this.#probes.delete(key);
    for (const [key, ctx] of keys) {
      const p = this.#probes.get(key);
      if (p && (p.doneAt === null || p.uid !== null || now - p.doneAt < RETRY_MS)) continue;
      this.#probes.set(key, { uid: null, doneAt: null });
      this.#queue.push({ key, ctx });
    }
    this.#pump();
  }

  stop(): void {
    this.#stopped = true;
    this.#queue.length = 0;
  }

  #pump(): void {
    while (!this.#stopped && this.#running < UID_CONCURRENCY) {
      const next = this.#queue.shift();
      if (!next) return;
      this.#running++;
      void this.#read(next.key, next.ctx).finally(() => {
        this.#running--;
        this.#pump();
      });
    }
  }

  async #read(key: string, ctx: ResolvedContext): Promise<void> {
    let client: ContextClient | null = null;
    let uid: string | null = null;
    try {
      client = this.#o.makeClient(ctx);
      uid = namespaceUid(
        await client.getJson(KUBE_SYSTEM_PATH, 'reading the kube-system namespace', UID_TIMEOUT_MS),
      );
      if (uid === null)
        this.#o.debug?.(ctx.name, 'kube-system uid not read (no plausible uid in the answer)');
    } catch (error) {
      // Forbidden for most read-only users: the address alone then says which cluster this is.
      this.#o.debug?.(
        ctx.name,
        `kube-system uid not read (${error instanceof Error ? error.message : 'failed'})`,
      );
    } finally {
      client?.close();
    }
    const probe = this.#probes.get(key);
    if (this.#stopped || !probe) return;
    probe.uid = uid;
    probe.doneAt = this.#o.clock.now();
    if (uid !== null) this.#o.changed();
  }
}
