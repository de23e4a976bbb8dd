/**
 * Telemetry read once, for the CLI (`describe`, `top`): one discovery, then the nodes' exporters with a
 * few scrapes in flight at once. Nothing is kept and nothing alerts.
 */
import type { NodeTelemetry } from '../../common/telemetry.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { ContextTelemetry } from './context-telemetry.ts';

/** Scrapes in flight at once: a one-shot table must not flood the API server. */
export const ONE_SHOT_CONCURRENCY = 4;

export async function readTelemetry(
  client: ContextClient,
  context: string,
  nodes: readonly string[],
  clock: Clock,
): Promise<Map<string, NodeTelemetry>> {
  const t = new ContextTelemetry(context, clock, () => {});
  const out = new Map<string, NodeTelemetry>();
  let next = 0;
  const worker = async () => {
    while (next < nodes.length) {
      const node = nodes[next++] as string;
      out.set(node, await t.onDemand(node, client));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ONE_SHOT_CONCURRENCY, nodes.length) }, worker));
  return out;
}
