/**
 * Whether a CRD read from a cluster is one we can write to: the shape the writers rely on (kind,
 * scope, a served v1 with a status subresource). Its schema may differ (an earlier operator's), since
 * the API server prunes what it does not know; the name and the URL are what must match.
 */
import { CRD_KIND, CRD_PLURAL, CRD_VERSION } from './crd.ts';
import { asRecord } from './ssa.ts';

/** What differs from our shape, in words; empty when the CRD can be used as it is. */
export function crdShapeProblems(crd: Record<string, unknown>, group: string): string[] {
  const spec = asRecord(crd.spec);
  const names = asRecord(spec.names);
  const problems: string[] = [];
  if (spec.group !== group) problems.push(`group is ${String(spec.group)}, not ${group}`);
  if (names.kind !== CRD_KIND) problems.push(`kind is ${String(names.kind)}, not ${CRD_KIND}`);
  if (names.plural !== CRD_PLURAL) problems.push(`plural is ${String(names.plural)}, not ${CRD_PLURAL}`);
  if (spec.scope !== 'Cluster') problems.push(`scope is ${String(spec.scope)}, not Cluster`);
  const versions = Array.isArray(spec.versions) ? spec.versions.map(asRecord) : [];
  const v1 = versions.find((v) => v.name === CRD_VERSION);
  if (!v1) problems.push(`it has no version ${CRD_VERSION}`);
  else {
    if (v1.served !== true) problems.push(`version ${CRD_VERSION} is not served`);
    if (!('status' in asRecord(v1.subresources)))
      problems.push(`version ${CRD_VERSION} has no status subresource`);
  }
  return problems;
}

export function isEstablished(crd: Record<string, unknown>): boolean {
  const conditions = asRecord(crd.status).conditions;
  if (!Array.isArray(conditions)) return false;
  return conditions.some((c) => asRecord(c).type === 'Established' && asRecord(c).status === 'True');
}
