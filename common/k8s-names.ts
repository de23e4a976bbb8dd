/**
 * The names a real API server accepts (k8s.io/apimachinery validation), checked before a name from a
 * cluster, a flag or a file goes into a request path or is trusted as one.
 */

import { Type } from '@sinclair/typebox';

/** Node names (and pod names) are DNS-1123 subdomains of at most this many characters. */
export const MAX_NODE_NAME = 253;
/** A namespace is a DNS-1123 label of at most this many characters. */
export const MAX_NAMESPACE_NAME = 63;
/** The patterns as strings too, for the JSON schemas (TypeBox `pattern`) that must agree with the checks. */
export const DNS1123_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** An API group: a DNS-1123 subdomain with at least one dot (a CRD's group must have one). */
export const API_GROUP_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$';
export const DNS1123_SUBDOMAIN_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const DNS1123_SUBDOMAIN = new RegExp(DNS1123_SUBDOMAIN_PATTERN);
const DNS1123_LABEL = new RegExp(DNS1123_LABEL_PATTERN);
const API_GROUP = new RegExp(API_GROUP_PATTERN);

/** A DNS-1123 subdomain of at most 253 characters: a Node's (or a Pod's) name. */
export function isNodeName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= MAX_NODE_NAME &&
    DNS1123_SUBDOMAIN.test(name)
  );
}

/** A DNS-1123 label of at most 63 characters: a namespace's name. */
export function isNamespaceName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= MAX_NAMESPACE_NAME &&
    DNS1123_LABEL.test(name)
  );
}

/** An API group name a CRD can have: a DNS-1123 subdomain with a dot, at most 253 characters. */
export function isApiGroupName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_NODE_NAME && API_GROUP.test(name);
}

/** The name part of a qualified name (a label or taint key): at most 63 characters. */
export const MAX_QUALIFIED_NAME_PART = 63;
const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * A qualified name, the form of a label or taint key (`nvidia.com/gpu`, `node-role`): an optional
 * DNS-1123 subdomain prefix and a slash, then a name part of letters, digits, `-`, `_` and `.`.
 */
export function isQualifiedName(key: unknown): key is string {
  if (typeof key !== 'string') return false;
  const slash = key.indexOf('/');
  const prefix = slash === -1 ? null : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  return (
    (prefix === null || isNodeName(prefix)) &&
    name.length <= MAX_QUALIFIED_NAME_PART &&
    QUALIFIED_NAME_PART.test(name)
  );
}

/** A label value (also a taint's or a toleration's value): empty, or at most 63 characters, alphanumeric at both ends. */
export const MAX_LABEL_VALUE = 63;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

export function isLabelValue(value: unknown): boolean {
  return typeof value === 'string' && value.length <= MAX_LABEL_VALUE && LABEL_VALUE.test(value);
}

/**
 * The JSON schema of a namespace name (settings file, IPC patch): the same rule as isNamespaceName.
 * `errorMessage` is the sentence our checkers (common/validate.ts `errorText`) say instead of the pattern.
 */
export const NamespaceNameSchema = Type.String({
  minLength: 1,
  maxLength: MAX_NAMESPACE_NAME,
  pattern: DNS1123_LABEL_PATTERN,
  errorMessage: 'must be a namespace name: lowercase letters, digits and dashes, at most 63 characters',
});

/** The JSON schema of a node (or pod) name: the same rule as isNodeName. */
export const NodeNameSchema = Type.String({
  minLength: 1,
  maxLength: MAX_NODE_NAME,
  pattern: DNS1123_SUBDOMAIN_PATTERN,
  errorMessage: 'must be a node name: lowercase letters, digits, dashes and dots, at most 253 characters',
});

/** The JSON schema of an API group name: the same rule as isApiGroupName. */
export const ApiGroupNameSchema = Type.String({
  minLength: 1,
  maxLength: MAX_NODE_NAME,
  pattern: API_GROUP_PATTERN,
  errorMessage: 'must be an API group: a lowercase DNS name with at least one dot, like gpufleet.io',
});

/**
 * The JSON schema of a kubeconfig context name as settings and IPC take it: not a Kubernetes object name
 * (kubeconfigs allow nearly anything), so only its length is held to what a name can be.
 */
export const ContextNameSchema = Type.String({ minLength: 1, maxLength: MAX_NODE_NAME });
