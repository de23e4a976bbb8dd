/**
 * Taints and tolerations as the scheduler matches them (k8s.io/api core/v1 Toleration.ToleratesTaint):
 * the effect matches when the toleration's is empty or equal; an empty key with Exists tolerates every
 * taint; otherwise the keys must be equal, and with Equal (the default operator) the values too. Only
 * NoSchedule and NoExecute keep a new pod off a node (PreferNoSchedule is a preference).
 */
import type { BlockingTaint } from '../../common/free-gpus.ts';

export interface Toleration {
  key: string | null;
  operator: 'Exists' | 'Equal';
  value: string | null;
  /** null tolerates every effect. */
  effect: string | null;
}

export interface Taint {
  key: string;
  value: string | null;
  effect: string;
}

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect !== null && t.effect !== '' && t.effect !== taint.effect) return false;
  const key = t.key ?? '';
  if (key === '' && t.operator === 'Exists') return true;
  if (key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** The taints that keep a pod off (NoSchedule/NoExecute), of those the node has. */
export function blockingTaints(taints: readonly Taint[]): BlockingTaint[] {
  const out: BlockingTaint[] = [];
  for (const t of taints)
    if (t.effect === 'NoSchedule' || t.effect === 'NoExecute')
      out.push({ key: t.key, value: t.value, effect: t.effect });
  return out;
}

/** The node's blocking taints that none of the pod's tolerations tolerates. */
export function untolerated(
  taints: readonly BlockingTaint[],
  tolerations: readonly Toleration[],
): BlockingTaint[] {
  return taints.filter((taint) => !tolerations.some((t) => tolerates(t, taint)));
}

/** `key=value:Effect`, or `key:Effect` without a value, as kubectl describe prints a taint. */
export function taintText(t: Taint): string {
  return `${t.key}${t.value === null || t.value === '' ? '' : `=${t.value}`}:${t.effect}`;
}

/**
 * A toleration as `kubectl describe pod` prints it: `key=value:Effect`, `key:Effect op=Exists`, an empty
 * key with Exists `op=Exists` (it tolerates everything), no `:Effect` when it tolerates every effect.
 */
export function tolerationText(t: Toleration): string {
  const value = t.value !== null && t.value !== '' ? `=${t.value}` : '';
  const effect = t.effect !== null && t.effect !== '' ? `:${t.effect}` : '';
  const exists = t.operator === 'Exists' && value === '' ? ' op=Exists' : '';
  return `${t.key ?? ''}${value}${effect}${exists}`.trim();
}

/** True when the scheduler's message says a taint was not tolerated (`node(s) had untolerated taint {…}`). */
export function namesUntoleratedTaint(message: string | null): boolean {
  return message?.includes('untolerated taint') ?? false;
}
