// Shared types of the Kubernetes API simulator: JSON values, objects, resource definitions.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** A stored Kubernetes object (always with kind, apiVersion and metadata). */
export type KObj = JsonObject & { metadata: JsonObject };

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
}

export interface User {
  name: string;
  uid: string;
  groups: string[];
}

export function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function apiVersionOf(def: ResourceDef): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

export function storeKey(def: ResourceDef): string {
  return `${def.group}/${def.resource}`;
}
