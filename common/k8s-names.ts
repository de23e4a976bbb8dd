/**
 * The names a real API server accepts (k8s.io/apimachinery validation), checked before a name from a
 * cluster, a flag or a file goes into a request path or is trusted as one.
 */

/** Node names (and pod names) are DNS-1123 subdomains of at most this many characters. */
export const MAX_NODE_NAME = 253;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

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
  return typeof name === 'string' && name.length > 0 && name.length <= 63 && DNS1123_LABEL.test(name);
}
