// The simulator's state: store, registry, auth, and the one place objects are written.
import { randomUUID } from 'node:crypto';
import { Auth } from './auth.ts';
import { deepEqual, nowIso } from './json.ts';
import { checkStorable, DEFAULT_LIMITS, type SizeLimits } from './limits.ts';
import { OidcAuthenticator, type OidcIssuer } from './oidc.ts';
import type { Attributes } from './rbac.ts';
import { authorize } from './rbac.ts';
import { Registry } from './resources.ts';
import { canonical } from './serialize.ts';
import { Store } from './store.ts';
import { ServiceAccountTokens } from './tokens.ts';
import type { JsonObject, KObj, ResourceDef, User } from './types.ts';
import { apiVersionOf, storeKey } from './types.ts';

export interface CoreOptions {
  watchWindow: number;
  bookmarkIntervalMs: number;
  version: JsonObject;
  /** How long a new CRD takes to become Established (a real server: a few ms); 0: on the next microtask. */
  crdEstablishDelayMs?: number;
  /** The size limits (sim/limits.ts); tests scale them down to reach them with small objects. */
  limits?: Partial<SizeLimits>;
  /** The sim's clock (epoch ms) for token expiry; Date.now by default. */
  now?: () => number;
  /** Accept the ID tokens of this OIDC issuer (sim/oidc.ts); none by default. */
  oidc?: OidcIssuer;
}

/** How a partitioned client's requests fail: connection reset, a 503, or no answer until healed. */
export type Partition = 'reset' | '503' | 'timeout';

export class Core {
  readonly store: Store;
  readonly registry = new Registry();
  readonly auth = new Auth();
  /** Hooks run after a write of a given store key (CRD lifecycle). */
  readonly afterWrite = new Map<string, (o: KObj | undefined, prev: KObj | undefined) => void>();
  /** Deletes that do not remove at once (namespaces, CRDs): return the object as answered. */
  readonly deleteHooks = new Map<string, (prev: KObj) => KObj>();
  /** Called when watches are un-stalled, to flush what they held back. */
  readonly onUnstall = new Set<() => void>();
  stalled = false;
  latencyMs = 0;
  readonly limits: SizeLimits;
  /** Added to the clock by the advanceClock control (tests move time instead of sleeping). */
  clockOffsetMs = 0;
  readonly saTokens: ServiceAccountTokens;
  readonly oidc: OidcAuthenticator | null;
  /** Credentials (user name or token credential id) whose requests fail, and how (the partition control). */
  readonly partitions = new Map<string, Partition>();

  constructor(readonly options: CoreOptions) {
    this.store = new Store(options.watchWindow);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.saTokens = new ServiceAccountTokens(() => this.now());
    this.oidc = options.oidc ? new OidcAuthenticator(options.oidc, () => this.now()) : null;
  }

  now(): number {
    return (this.options.now?.() ?? Date.now()) + this.clockOffsetMs;
  }

  /** The user of a request's Authorization header (throws the 401). */
  authenticate(header: string | undefined): User {
    return this.auth.authenticate(header, (token) => {
      const sa = this.saTokens.authenticate(token, (ns, name) => {
        const sa = this.store.get('/serviceaccounts', `${ns}/${name}`);
        return sa ? String(sa.metadata.uid ?? '') : undefined;
      });
      return sa === null && this.oidc ? this.oidc.authenticate(token) : sa;
    });
  }

  authorize(u: User, a: Attributes): { allowed: boolean; reason?: string } {
    return authorize(this, u, a);
  }

  list(def: ResourceDef): KObj[] {
    return this.store.list(storeKey(def));
  }

  keyOf(def: ResourceDef, namespace: string, name: string): string {
    return def.namespaced ? `${namespace}/${name}` : name;
  }

  keyOfObj(def: ResourceDef, o: KObj): string {
    return this.keyOf(def, String(o.metadata.namespace ?? ''), String(o.metadata.name ?? ''));
  }

  get(def: ResourceDef, namespace: string, name: string): KObj | undefined {
    return this.store.get(storeKey(def), this.keyOf(def, namespace, name));
  }

  /**
   * Writes next (fresh object) unless it equals prev; fills uid/creationTimestamp/generation. Throws the
   * ApiError a real server answers when the object is over a size limit (sim/limits.ts); `how` says
   * whether the write was a server-side apply (which gets no retry without managedFields); `dryRun`
   * (dryRun=All) returns what would be stored without storing it.
   */
  write(
    def: ResourceDef,
    next: KObj,
    prev: KObj | undefined,
    how: 'apply' | 'update' = 'update',
    dryRun = false,
  ): { obj: KObj; changed: boolean } {
    next.kind = def.kind;
    next.apiVersion = apiVersionOf(def);
    const md = next.metadata;
    if (prev) {
      md.uid = prev.metadata.uid ?? null;
      md.creationTimestamp = prev.metadata.creationTimestamp ?? null;
      if (prev.metadata.generation !== undefined) md.generation = prev.metadata.generation;
    } else {
      md.uid = md.uid ?? randomUUID();
      md.creationTimestamp = md.creationTimestamp ?? nowIso();
      if (def.generation) md.generation = 1;
    }
    delete md.resourceVersion;
    if (prev) {
      const { resourceVersion: _r, ...prevMd } = prev.metadata;
      if (deepEqual({ ...prev, metadata: prevMd }, next)) return { obj: prev, changed: false };
      if (def.generation && this.specChanged(prev, next))
        md.generation = Number(prev.metadata.generation ?? 0) + 1;
    }
    checkStorable(def, next, !prev, this.limits, how === 'apply');
    if (dryRun) {
      // What would be stored, not stored: no event, no new resourceVersion (an update shows the current one).
      const would = canonical(def, next);
      if (prev) would.metadata.resourceVersion = prev.metadata.resourceVersion ?? null;
      return { obj: would, changed: true };
    }
    const stored = this.store.put(storeKey(def), this.keyOfObj(def, next), canonical(def, next));
    this.afterWrite.get(storeKey(def))?.(stored, prev);
    return { obj: this.store.get(storeKey(def), this.keyOfObj(def, next)) ?? stored, changed: true };
  }

  private specChanged(prev: KObj, next: KObj): boolean {
    const strip = (o: KObj) => {
      const { metadata: _m, status: _s, ...rest } = o;
      return rest;
    };
    return !deepEqual(strip(prev), strip(next));
  }

  remove(def: ResourceDef, o: KObj): KObj | undefined {
    const gone = this.store.remove(storeKey(def), this.keyOfObj(def, o));
    this.afterWrite.get(storeKey(def))?.(undefined, o);
    return gone;
  }
}
