/**
 * Pure: the link that opens the window on one node (`#node=<context>/<node>`) or one cluster
 * (`#context=<context>`), each name URI-encoded: made by the forwarder for an ntfy click URL when
 * `gpu-fleet serve` runs (its address, never its session token), read by the window at load.
 */
export interface FocusTarget {
  context: string;
  node: string | null;
}

/** A link longer than this points at the cluster only (ntfy takes a click URL of a few KB at most). */
export const FOCUS_LINK_MAX = 2000;

export function focusLink(base: string, target: FocusTarget): string {
  const context = encodeURIComponent(target.context);
  const onNode = target.node === null ? null : `${base}#node=${context}/${encodeURIComponent(target.node)}`;
  if (onNode !== null && onNode.length <= FOCUS_LINK_MAX) return onNode;
  const onContext = `${base}#context=${context}`;
  return onContext.length <= FOCUS_LINK_MAX ? onContext : base;
}

/** The target of a location hash, or null when it names none (or is malformed). */
export function parseFocusHash(hash: string): FocusTarget | null {
  const m = /^#(node|context)=([^/]+)(?:\/([^/]+))?$/.exec(hash);
  if (!m) return null;
  try {
    const context = decodeURIComponent(m[2] ?? '');
    const node = m[3] === undefined ? null : decodeURIComponent(m[3]);
    if (context === '' || context.length > 253 || (node !== null && node.length > 253)) return null;
    if (m[1] === 'node' && node === null) return null;
    if (m[1] === 'context' && node !== null) return null;
    return { context, node };
  } catch {
    return null;
  }
}
