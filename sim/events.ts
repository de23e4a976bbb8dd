// Events, as kube-apiserver serves them (transcript 12): one storage behind two APIs, core/v1 and
// events.k8s.io/v1, each object shown in the form of the API that reads it; both validations on create;
// the field selectors each API supports (any other field is 400 "field label not supported: X").

import type { Cause } from './errors.ts';
import { invalid } from './errors.ts';
import { obj, str } from './json.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { CRUD_VERBS, isObj } from './types.ts';

const CORE_AV = 'v1';
const EVENTS_AV = 'events.k8s.io/v1';

/** Puts the keys in `order` first (Go struct order), dropping undefined ones, then the rest. */
function ordered(o: JsonObject, order: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of order) if (o[k] !== undefined) out[k] = o[k] as Json;
  for (const [k, v] of Object.entries(o)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

const CORE_ORDER = [
  'kind',
  'apiVersion',
  'metadata',
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];
const V1_ORDER = [
  'kind',
  'apiVersion',
  'metadata',
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
];

const nonEmpty = (v: Json | undefined): Json | undefined => (v === '' || v === 0 ? undefined : v);

/** An events.k8s.io/v1 Event in its core/v1 form (transcript 12 step 5). */
function toCore(e: KObj): KObj {
  const out: JsonObject = {
    kind: 'Event',
    apiVersion: CORE_AV,
    metadata: e.metadata,
    involvedObject: e.regarding ?? {},
    reason: nonEmpty(e.reason) as Json,
    message: nonEmpty(e.note) as Json,
    source: e.deprecatedSource ?? {},
    firstTimestamp: e.deprecatedFirstTimestamp ?? null,
    lastTimestamp: e.deprecatedLastTimestamp ?? null,
    count: nonEmpty(e.deprecatedCount) as Json,
    type: nonEmpty(e.type) as Json,
    eventTime: e.eventTime ?? null,
    series: e.series as Json,
    action: nonEmpty(e.action) as Json,
    related: e.related as Json,
    reportingComponent: e.reportingController ?? '',
    reportingInstance: e.reportingInstance ?? '',
  };
  return ordered(out, CORE_ORDER) as KObj;
}

/** A core/v1 Event in its events.k8s.io/v1 form (transcript 12 step 11). */
function toV1(e: KObj): KObj {
  const out: JsonObject = {
    kind: 'Event',
    apiVersion: EVENTS_AV,
    metadata: e.metadata,
    eventTime: e.eventTime ?? null,
    series: e.series as Json,
    reportingController: nonEmpty(e.reportingComponent) as Json,
    reportingInstance: nonEmpty(e.reportingInstance) as Json,
    action: nonEmpty(e.action) as Json,
    reason: nonEmpty(e.reason) as Json,
    regarding: e.involvedObject ?? {},
    related: e.related as Json,
    note: nonEmpty(e.message) as Json,
    type: nonEmpty(e.type) as Json,
    deprecatedSource: e.source ?? {},
    deprecatedFirstTimestamp: e.firstTimestamp ?? null,
    deprecatedLastTimestamp: e.lastTimestamp ?? null,
    deprecatedCount: nonEmpty(e.count) as Json,
  };
  return ordered(out, V1_ORDER) as KObj;
}

export function presentCore(o: KObj): KObj {
  return o.apiVersion === EVENTS_AV ? toCore(o) : o;
}

export function presentV1(o: KObj): KObj {
  return o.apiVersion === EVENTS_AV ? o : toV1(o);
}

const STORAGE = '/events';

export const EVENT_DEFS: ResourceDef[] = [
  {
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    listKind: 'EventList',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    hasStatus: false,
    builtin: true,
    verbs: [...CRUD_VERBS],
    generation: false,
    storage: STORAGE,
    present: presentCore,
  },
  {
    group: 'events.k8s.io',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    listKind: 'EventList',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    hasStatus: false,
    builtin: true,
    verbs: [...CRUD_VERBS],
    generation: false,
    storage: STORAGE,
    present: presentV1,
  },
];

const unset = (v: Json | undefined) => v === undefined || v === null || v === '' || v === 0;
const isZeroSource = (v: Json | undefined) => !isObj(v) || (!str(v.component) && !str(v.host));

/** The checks every Event passes, in its core form (legacyValidateEvent upstream). */
function legacyCauses(core: KObj): Cause[] {
  const causes: Cause[] = [];
  const ns = str(core.metadata.namespace) ?? '';
  const involvedNs = str(obj(core.involvedObject).namespace) ?? '';
  const bad = {
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(involvedNs)}: does not match event.namespace`,
    field: 'involvedObject.namespace',
  };
  if (unset(core.eventTime)) {
    // An old-style event about a cluster-scoped object may only live in "default" (or no namespace).
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) causes.push(bad);
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') causes.push(bad);
    else if (involvedNs !== '' && ns !== involvedNs) causes.push(bad);
    for (const [field, v] of [
      ['reportingController', core.reportingComponent],
      ['reportingInstance', core.reportingInstance],
      ['action', core.action],
      ['reason', core.reason],
    ] as const) {
      if (unset(v)) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
    }
  }
  return causes;
}

/** The stricter checks of a create through events.k8s.io/v1 (transcript 12 step 4). */
function strictCauses(e: KObj): Cause[] {
  const causes: Cause[] = [];
  if (unset(e.eventTime))
    causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'eventTime' });
  if (e.type !== 'Normal' && e.type !== 'Warning')
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "": has invalid value: ${str(e.type) ?? ''}`,
      field: 'type',
    });
  const needsUnset = (field: string) =>
    causes.push({ reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field });
  if (!unset(e.deprecatedFirstTimestamp)) needsUnset('firstTimestamp');
  if (!unset(e.deprecatedLastTimestamp)) needsUnset('lastTimestamp');
  if (!unset(e.deprecatedCount)) needsUnset('count');
  if (!isZeroSource(e.deprecatedSource)) needsUnset('source');
  return causes;
}

/** Validates an Event being created and fills what the server adds; throws the 422 a real server sends. */
export function eventCreate(def: ResourceDef, o: KObj): void {
  const v1 = def.group === 'events.k8s.io';
  const name = str(o.metadata.name) ?? '';
  const causes = v1 ? [...legacyCauses(toCore(o)), ...strictCauses(o)] : legacyCauses(o);
  if (causes.length > 0) throw invalid('Event', '', name, causes);
  const filled = v1
    ? ordered(
        {
          ...o,
          deprecatedSource: o.deprecatedSource ?? {},
          deprecatedFirstTimestamp: o.deprecatedFirstTimestamp ?? null,
          deprecatedLastTimestamp: o.deprecatedLastTimestamp ?? null,
        },
        V1_ORDER,
      )
    : ordered(
        {
          ...o,
          eventTime: o.eventTime ?? null,
          reportingComponent: o.reportingComponent ?? '',
          reportingInstance: o.reportingInstance ?? '',
        },
        CORE_ORDER,
      );
  for (const k of Object.keys(o)) delete o[k];
  Object.assign(o, filled);
}

const REF_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

/**
 * The value of a field selector's field on an Event as the API `def` reads it, or undefined when that
 * API does not support the field (core: involvedObject.*, reason, reportingComponent, source, type;
 * events.k8s.io: regarding.*, reason, reportingController, type; both: metadata.name/namespace).
 */
export function eventField(def: ResourceDef, stored: KObj, field: string): string | undefined {
  const core = presentCore(stored);
  const dot = field.indexOf('.');
  const head = dot < 0 ? field : field.slice(0, dot);
  const rest = dot < 0 ? '' : field.slice(dot + 1);
  const ref = obj(core.involvedObject);
  const refHead = def.group === 'events.k8s.io' ? 'regarding' : 'involvedObject';
  if (head === refHead && REF_FIELDS.includes(rest)) return String(ref[rest] ?? '');
  if (field === 'reason' || field === 'type') return String(core[field] ?? '');
  if (def.group === 'events.k8s.io') {
    if (field === 'reportingController') return String(core.reportingComponent ?? '');
    return undefined;
  }
  if (field === 'reportingComponent') return String(core.reportingComponent ?? '');
  if (field === 'source') return String(obj(core.source).component ?? '');
  return undefined;
}
