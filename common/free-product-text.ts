/**
 * A free-GPU product as people read it, in one language, from its facts (the node's product label, the
 * slot kind, the MIG profile): `A100 SXM4 40GB MIG 1g.5gb`, `RTX 4090 (shared)` / `RTX 4090 (공유)`. The
 * product name itself is the cluster's label and kept as it is; only the words around it are translated.
 * The CLI words it in English from the same catalog (inventory/node-slots.ts), the tray, the window and
 * the alerts in the user's language. Pure.
 */

import type { SlotKind } from './free-gpus.ts';
import type { Translator } from './i18n/translator.ts';
import { shortProduct } from './product-name.ts';

export interface ProductFacts {
  product: string | null;
  kind: SlotKind;
  profile: string | null;
  /** The English label (a device's label is its resource name, which no language translates). */
  label: string;
}

export function productText(p: ProductFacts, tr: Translator): string {
  if (p.kind === 'device') return p.label;
  const name =
    p.product === null ? tr.t('freeGpus.labelUnlabeled') : shortProduct(baseProduct(p.product, p.kind));
  if (p.kind === 'mig') return tr.t('freeGpus.labelMig', { product: name, profile: p.profile ?? '' }).trim();
  if (p.kind === 'shared') return tr.t('freeGpus.labelShared', { product: name });
  return name;
}

/** The product without what the slot kind already says (a single-strategy `-MIG-<profile>`, `-SHARED`). */
export function baseProduct(product: string, kind: SlotKind): string {
  let p = product.replace(/-SHARED$/i, '');
  if (kind === 'mig') p = p.replace(/-MIG-.+$/, '');
  return p;
}

/** "4 replicas of 1 GPU" for shared slots whose physical GPUs are known; null otherwise. */
export function replicasText(
  p: { kind: SlotKind; capacity: number; physical?: number | null },
  tr: Translator,
): string | null {
  if (p.kind !== 'shared' || p.capacity <= 0) return null;
  if (p.physical === undefined || p.physical === null || p.physical <= 0) return null;
  return tr.t('freeGpus.replicas', { count: p.physical, replicas: p.capacity });
}
