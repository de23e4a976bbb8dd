/**
 * `scan -o wide`: the GPU model the DCGM exporters name for nodes whose product label is gone, read once
 * through the API server (discovery, then a few scrapes at a time). Best effort: a context without an
 * exporter, without pods/proxy rights or that does not answer gives no model, never an error.
 */

import type { GpuInventoryStatus } from '../../../common/inventory.ts';
import { productlessNodes } from '../../../common/inventory-counts.ts';
import { systemClock } from '../../kube/clock.ts';
import { ContextClient } from '../../kube/context-client.ts';
import type { ResolvedContext } from '../../kube/kubeconfig-types.ts';
import { readTelemetry } from '../../telemetry/one-shot.ts';

/** Unlabeled nodes scraped at most per context (each is one request through the API server). */
export const SCAN_MODEL_NODES = 50;

export async function telemetryModels(
  ctx: ResolvedContext,
  inv: GpuInventoryStatus,
): Promise<Map<string, string>> {
  const names = [...productlessNodes(inv)].slice(0, SCAN_MODEL_NODES);
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  let client: ContextClient | null = null;
  try {
    client = new ContextClient(ctx);
    for (const [node, t] of await readTelemetry(client, ctx.name, names, systemClock)) {
      const model = t.state === 'ok' ? t.gpus.find((g) => g.model !== null)?.model : null;
      if (model) out.set(node, model);
    }
  } catch {
    // Best effort (see above): the table shows <unlabeled> as it would without telemetry.
  } finally {
    client?.close();
  }
  return out;
}
