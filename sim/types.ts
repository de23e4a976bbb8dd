// Shared types of the Kubernetes API simulator: JSON values, objects, resource definitions.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** A stored Kubernetes object (always with kind, apiVersion and metadata). */
export type KObj = JsonObject & { metadata: JsonObject };

/** The verbs discovery lists for an ordinary resource (create through watch), as kube-apiserver does. */
export const CRUD_VERBS: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

export interface ResourceDef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories?: string[];
  hasStatus: boolean;
  builtin: boolean;
  verbs: string[];
  /** For custom resources: the openAPIV3Schema of the served version. */
  schema?: JsonObject;
  printerColumns?: JsonObject[];
  /** Built-in objects that carry metadata.generation. */
  generation: boolean;
  /** Create/list-only kinds (reviews) that are never stored. */
  virtual?: boolean;
  /** Store key when two APIs share one storage (core/v1 and events.k8s.io/v1 Events). */
  storage?: string;
  /** The stored object in this API's form (Events read through the other API are converted). */
  present?: (o: KObj) => KObj;
  /**
   * Built-in kinds with a typed body: decodes in place (Go types, struct order) and returns the decoder's
   * error text and the unknown-field warnings.
   */
  decode?: (o: KObj, strict: boolean) => { error?: string; warnings: string[] };
  /** Built-in kinds' own validation (the 422 causes beyond metadata). */
  validate?: (o: KObj, prev?: KObj) => { reason: string; message: string; field?: string }[];
}

export interface User {
  name: string;
  uid: string;
  groups: string[];
  /** UserInfo extra (a ServiceAccount token's credential id). */
  extra?: Record<string, string[]>;
  /** Which credential authenticated (a ServiceAccount token's JTI), for the request log. */
  credential?: string;
}

export function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function apiVersionOf(def: ResourceDef): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

export function storeKey(def: ResourceDef): string {
  return def.storage ?? `${def.group}/${def.resource}`;
}

/** The object as the API `def` shows it. */
export function presented(def: ResourceDef, o: KObj): KObj {
  return def.present ? def.present(o) : o;
}
