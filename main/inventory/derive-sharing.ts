/**
 * GPU sharing (time-slicing or MPS) of a node. GFD labels every node with `gpu.replicas=1` and
 * `gpu.sharing-strategy=none` when nothing is shared, so those alone do not make a node "shared".
 */
import type { GpuProblemWords, GpuResource, SharingInfo } from '../../common/inventory.ts';
import { readNumber } from './gpu-labels.ts';
import { LABEL, SHARED_RESOURCE } from './labels.ts';
import { MAX_REPLICAS } from './parse.ts';

export function deriveSharing(
  labels: Readonly<Record<string, string>>,
  product: string | null,
  resources: readonly GpuResource[],
  problems: GpuProblemWords[],
): SharingInfo | null {
  const rawStrategy = labels[LABEL.sharingStrategy]?.trim();
  const strategy = rawStrategy === undefined || rawStrategy === '' ? null : rawStrategy;
  const replicas = readNumber(labels, LABEL.replicas, MAX_REPLICAS, 'replicasUnknown', problems);
  const shared =
    product?.endsWith('-SHARED') === true ||
    resources.some((r) => r.name === SHARED_RESOURCE || r.name.endsWith('.shared')) ||
    (strategy !== null && strategy !== 'none') ||
    (replicas !== null && replicas > 1);
  return shared ? { strategy, replicas } : null;
}
