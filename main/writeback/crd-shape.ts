/**
 * Whether a CRD read from a cluster is one we can write to: the shape the writers rely on (kind,
 * scope, a served v1 with a status subresource) and a status schema that takes what we write.
 *
 * Its schema may lack some of our optional fields (an earlier operator's CRD): the API server prunes
 * those, which costs detail but no meaning, so they are reported as `dropped`, not as problems. A
 * problem is what makes our writes fail or change meaning: another type for a field we write, one of
 * the SPEC fields (totals, the six node fields) missing, or a required field we never write.
 */
import { clusterText } from '../../common/cluster-text.ts';
import { GpuInventoryStatus } from '../../common/inventory.ts';
import { asRecord } from '../../common/json-guards.ts';
import { CRD_KIND, CRD_PLURAL, CRD_VERSION } from './crd.ts';
import { type OpenApiSchema, toOpenApi } from './openapi.ts';
import { WriteError } from './write-error.ts';

/** The fields whose meaning SPEC.md fixes: a CRD without them cannot hold an inventory. */
const CORE_FIELDS = new Set([
  'status.observed_at',
  'status.total_gpu_nodes',
  'status.ready_gpu_nodes',
  'status.total_gpus',
  'status.nodes',
  ...['name', 'ready', 'product', 'count', 'memory', 'workload'].map((f) => `status.nodes[].${f}`),
]);

export interface SchemaFit {
  problems: string[];
  /** Our fields the CRD's schema does not know (the API server drops them on write). */
  dropped: string[];
}

const text = (v: unknown) => clusterText(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''), 60);

function v1Of(crd: Record<string, unknown>): Record<string, unknown> | undefined {
  const versions = asRecord(crd.spec).versions;
  return (Array.isArray(versions) ? versions.map(asRecord) : []).find((v) => v.name === CRD_VERSION);
}

/** How the CRD's v1 status schema takes the status we write. */
export function crdSchemaFit(crd: Record<string, unknown>): SchemaFit {
  const out: SchemaFit = { problems: [], dropped: [] };
  const root = asRecord(asRecord(asRecord(v1Of(crd)).schema).openAPIV3Schema);
  const status = asRecord(root.properties).status;
  if (status === undefined) {
    if (root['x-kubernetes-preserve-unknown-fields'] !== true) out.problems.push('its schema has no status');
    return out;
  }
  compare(toOpenApi(GpuInventoryStatus), asRecord(status), 'status', out);
  return out;
}

function compare(ours: OpenApiSchema, theirs: Record<string, unknown>, path: string, out: SchemaFit): void {
  const open = theirs['x-kubernetes-preserve-unknown-fields'] === true;
  if (theirs.type !== undefined && theirs.type !== ours.type) {
    out.problems.push(`${path} is of type ${text(theirs.type)}, not ${String(ours.type)}`);
    return;
  }
  if (ours.type === 'object' && ours.properties) {
    const props = asRecord(theirs.properties);
    for (const [k, sub] of Object.entries(ours.properties)) {
      const p = `${path}.${k}`;
      const t = Object.hasOwn(props, k) ? asRecord(props[k]) : undefined;
      if (t) compare(sub, t, p, out);
      else if (CORE_FIELDS.has(p)) out.problems.push(`its schema has no ${p}`);
      else if (!open) out.dropped.push(p);
    }
    const required = Array.isArray(theirs.required) ? theirs.required : [];
    for (const r of required)
      if (typeof r !== 'string' || !Object.hasOwn(ours.properties, r))
        out.problems.push(`it requires ${path}.${text(r)}, which GPU Fleet does not write`);
  }
  if (ours.type === 'array' && ours.items && theirs.items !== undefined)
    compare(ours.items, asRecord(theirs.items), `${path}[]`, out);
}

/** What differs from our shape, in words; empty when the CRD can be used as it is. */
export function crdShapeProblems(crd: Record<string, unknown>, group: string): string[] {
  const spec = asRecord(crd.spec);
  const names = asRecord(spec.names);
  const problems: string[] = [];
  if (spec.group !== group) problems.push(`group is ${text(spec.group)}, not ${group}`);
  if (names.kind !== CRD_KIND) problems.push(`kind is ${text(names.kind)}, not ${CRD_KIND}`);
  if (names.plural !== CRD_PLURAL) problems.push(`plural is ${text(names.plural)}, not ${CRD_PLURAL}`);
  if (spec.scope !== 'Cluster') problems.push(`scope is ${text(spec.scope)}, not Cluster`);
  const v1 = v1Of(crd);
  if (!v1) problems.push(`it has no version ${CRD_VERSION}`);
  else {
    if (v1.served !== true) problems.push(`version ${CRD_VERSION} is not served`);
    if (!Object.hasOwn(asRecord(v1.subresources), 'status'))
      problems.push(`version ${CRD_VERSION} has no status subresource`);
    problems.push(...crdSchemaFit(crd).problems);
  }
  return problems;
}

export function isEstablished(crd: Record<string, unknown>): boolean {
  const conditions = asRecord(crd.status).conditions;
  if (!Array.isArray(conditions)) return false;
  return conditions.some((c) => asRecord(c).type === 'Established' && asRecord(c).status === 'True');
}

/** The named state for a CRD of our name that write-back cannot use (terminal: it needs a person). */
export function crdMismatch(name: string, problems: string[]): WriteError {
  return new WriteError(
    'crd-mismatch',
    `The CRD ${name} exists but has another shape: ${problems.join('; ')}.`,
    null,
    true,
  );
}
