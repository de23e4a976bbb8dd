// coordination.k8s.io/v1 Leases as kube-apiserver serves them (transcript 11, steps 2–16): the spec decoded
// as Go's LeaseSpec (MicroTime with exactly six fractional digits, int32 fields), stored in struct order
// with times in UTC, and validated (leaseDurationSeconds > 0, leaseTransitions >= 0).
import { type Cause, invalidValue } from './errors.ts';
import type { Decoded, GoStruct } from './typed.ts';
import { decodeStruct, unknownTopLevel } from './typed.ts';
import type { KObj, ResourceDef } from './types.ts';
import { CRUD_VERBS, isObj } from './types.ts';

const LEASE_SPEC: GoStruct = {
  name: 'LeaseSpec',
  fields: [
    ['holderIdentity', 'string'],
    ['leaseDurationSeconds', 'int32'],
    ['acquireTime', 'microtime'],
    ['renewTime', 'microtime'],
    ['leaseTransitions', 'int32'],
    ['strategy', 'string'],
    ['preferredHolder', 'string'],
  ],
};

const STRATEGIES = ['OldestEmulationVersion'];

function decodeLease(o: KObj, strict: boolean): Decoded {
  const extra = unknownTopLevel(o, ['spec']);
  if (extra.length > 0 && strict)
    return {
      error: `strict decoding error: ${extra.map((k) => `unknown field "${k}"`).join(', ')}`,
      warnings: [],
    };
  for (const k of extra) delete o[k];
  const r = decodeStruct(o, 'spec', LEASE_SPEC, strict);
  return { ...r, warnings: [...extra.map((k) => `299 - "unknown field \\"${k}\\""`), ...r.warnings] };
}

/** pkg/apis/coordination/validation ValidateLeaseSpec. */
function validateLease(o: KObj): Cause[] {
  const spec = isObj(o.spec) ? o.spec : {};
  const causes: Cause[] = [];
  const d = spec.leaseDurationSeconds;
  if (typeof d === 'number' && d <= 0)
    causes.push(invalidValue('spec.leaseDurationSeconds', String(d), 'must be greater than 0'));
  const t = spec.leaseTransitions;
  if (typeof t === 'number' && t < 0)
    causes.push(invalidValue('spec.leaseTransitions', String(t), 'must be greater than or equal to 0'));
  const strategy = spec.strategy;
  if (typeof strategy === 'string' && !STRATEGIES.includes(strategy))
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: "${strategy}": supported values: "${STRATEGIES.join('", "')}"`,
      field: 'spec.strategy',
    });
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && !strategy)
    causes.push({
      reason: 'FieldValueForbidden',
      message: 'Forbidden: may only be specified if `strategy` is defined',
      field: 'spec.preferredHolder',
    });
  return causes;
}

export const LEASE_DEF: ResourceDef = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  kind: 'Lease',
  listKind: 'LeaseList',
  singular: 'lease',
  namespaced: true,
  shortNames: [],
  hasStatus: false,
  builtin: true,
  verbs: [...CRUD_VERBS],
  generation: false,
  decode: decodeLease,
  validate: validateLease,
};
