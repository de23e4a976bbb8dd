/**
 * What the free-GPU figures need of the pods, kept up to date pod by pod: per node, the sum of the live
 * pods' GPU requests, and the Pending pods the scheduler has not placed. A pod change costs O(its
 * resources), so a cluster with 20,000 GPU pods and 100 pod changes a second never walks all its pods
 * per change; the figures (free-gpus.ts) are then built from these sums in O(nodes). tallyOf builds the
 * same from scratch (the CLI, a relist); the two must always agree (free-tally.test.ts).
 */
import type { GpuPod } from './gpu-pod.ts';
import type { Quantities } from './pod-requests.ts';

const TERMINAL: ReadonlySet<string> = new Set(['Succeeded', 'Failed']);

/** A pod that holds its node's resources: bound and not terminated. */
export function isLive(pod: GpuPod): boolean {
  return pod.node !== null && !TERMINAL.has(pod.phase);
}

/** An unbound Pending pod: one the figures list as waiting for a place. */
export function isPending(pod: GpuPod): boolean {
  return pod.node === null && pod.phase === 'Pending';
}

export interface PodTally {
  /** The summed requests of the live pods on a node (a shared frozen object: equal sums are one object). */
  requestedOn(node: string): Quantities | undefined;
  /** The unbound Pending pods, by cache key. */
  readonly pending: ReadonlyMap<string, GpuPod>;
  /** Bumps whenever the Pending set changes. */
  readonly pendingVersion: number;
}

export class FreeTally implements PodTally {
  readonly #requested = new Map<string, Quantities>();
  readonly #pending = new Map<string, GpuPod>();
  #pendingVersion = 0;

  requestedOn(node: string): Quantities | undefined {
    return this.#requested.get(node);
  }

  get pending(): ReadonlyMap<string, GpuPod> {
    return this.#pending;
  }

  get pendingVersion(): number {
    return this.#pendingVersion;
  }

  /** Starts over from a whole pod set (a relist). */
  reset(pods: Iterable<readonly [string, GpuPod]>): void {
    this.#requested.clear();
    this.#pending.clear();
    this.#pendingVersion++;
    const sums = new Map<string, Record<string, number>>();
    for (const [key, pod] of pods) {
      if (isLive(pod) && pod.node !== null) {
        const s = sums.get(pod.node) ?? {};
        sums.set(pod.node, s);
        for (const r in pod.requests) s[r] = (s[r] ?? 0) + (pod.requests[r] ?? 0);
      } else if (isPending(pod)) this.#pending.set(key, pod);
    }
    for (const [node, s] of sums) this.#requested.set(node, pooledSums(s));
  }

  /** One pod changed under `key`: `before` is what was kept (undefined if new), `after` what is now (undefined if gone). */
  change(key: string, before: GpuPod | undefined, after: GpuPod | undefined): void {
    if (before !== undefined && isLive(before) && before.node !== null) this.#add(before.node, before, -1);
    if (after !== undefined && isLive(after) && after.node !== null) this.#add(after.node, after, 1);
    const wasPending = before !== undefined && isPending(before);
    const nowPending = after !== undefined && isPending(after);
    if (nowPending) this.#pending.set(key, after);
    else if (wasPending) this.#pending.delete(key);
    if (wasPending || nowPending) this.#pendingVersion++;
  }

  #add(node: string, pod: GpuPod, sign: 1 | -1): void {
    const next: Record<string, number> = { ...this.#requested.get(node) };
    for (const r in pod.requests) next[r] = (next[r] ?? 0) + sign * (pod.requests[r] ?? 0);
    const sums = pooledSums(next);
    if (Object.keys(sums).length === 0) this.#requested.delete(node);
    else this.#requested.set(node, sums);
  }
}

/**
 * Equal per-node sums are one frozen object (most nodes of a cluster hold the same few): at 5,000 nodes
 * a sums object per node would cost the heap more than the pods' own fields saved. Bounded; a miss
 * costs memory only. Keys in order and zero sums left out, so equal sums make equal pool keys.
 */
const SUMS_POOL_MAX = 1000;
const sumsPool = new Map<string, Quantities>();

function pooledSums(raw: Record<string, number>): Quantities {
  const clean: Record<string, number> = {};
  for (const r of Object.keys(raw).sort()) if ((raw[r] ?? 0) > 0) clean[r] = raw[r] ?? 0;
  const id = JSON.stringify(clean);
  const known = sumsPool.get(id);
  if (known !== undefined) return known;
  if (sumsPool.size >= SUMS_POOL_MAX) sumsPool.clear();
  const frozen = Object.freeze(clean);
  sumsPool.set(id, frozen);
  return frozen;
}

/** The tally of a whole pod set at once (keyed as the pod cache keys them). */
export function tallyOf(pods: Iterable<GpuPod>): FreeTally {
  const t = new FreeTally();
  t.reset(keyed(pods));
  return t;
}

function* keyed(pods: Iterable<GpuPod>): Iterable<readonly [string, GpuPod]> {
  for (const pod of pods) yield [`${pod.namespace}/${pod.name}`, pod] as const;
}
