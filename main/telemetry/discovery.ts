/**
 * Which exporter pod serves which node (pure): the pods of a label-selected list, mapped by spec.nodeName.
 * A node with several exporter pods (a rollout) takes the Running one, then the newest. Names are checked
 * as DNS labels before they are put into a request path.
 */
import { asRecord } from '../../common/json-guards.ts';
import { isNamespaceName, isNodeName } from '../../common/k8s-names.ts';
import type { ExporterRef } from './requests.ts';

interface Candidate extends ExporterRef {
  running: boolean;
  created: string;
}

/** Node name → exporter pod. Items that are not well-formed pods are skipped. */
export function exportersByNode(list: unknown): Map<string, ExporterRef> {
  const items = asRecord(list).items;
  const best = new Map<string, Candidate>();
  if (!Array.isArray(items)) return new Map();
  for (const item of items) {
    const md = asRecord(asRecord(item).metadata);
    const node = asRecord(asRecord(item).spec).nodeName;
    const { namespace, name } = md;
    if (!isNodeName(node) || !isNamespaceName(namespace) || !isNodeName(name)) continue;
    const c: Candidate = {
      namespace,
      pod: name,
      running: asRecord(asRecord(item).status).phase === 'Running' && md.deletionTimestamp === undefined,
      created: typeof md.creationTimestamp === 'string' ? md.creationTimestamp : '',
    };
    const prev = best.get(node);
    if (!prev || (c.running && !prev.running) || (c.running === prev.running && c.created > prev.created))
      best.set(node, c);
  }
  return new Map([...best].map(([node, c]) => [node, { namespace: c.namespace, pod: c.pod }]));
}
