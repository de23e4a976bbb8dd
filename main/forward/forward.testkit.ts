/** Test kit for forwarding: targets made from a kind and a URL, the way a host resolves them. */
import type { ForwardKind, ForwardSecret, ForwardTarget } from '../../common/forwarding.ts';
import { parseEndpoint } from './endpoint.ts';
import type { ResolvedTarget } from './forwarder.ts';

export function target(
  id: string,
  kind: ForwardKind,
  url: string,
  secret: Omit<ForwardSecret, 'url'> = {},
  config: Partial<ForwardTarget> = {},
): ResolvedTarget {
  const checked = parseEndpoint(kind, url);
  if (!checked.ok) throw new Error(checked.error);
  return {
    config: {
      id,
      kind,
      host: checked.endpoint.host,
      clusters: 'all',
      minSeverity: 'low',
      language: 'en',
      enabled: true,
      ...config,
    },
    endpoint: checked.endpoint,
    secret: { url, ...secret },
  };
}
