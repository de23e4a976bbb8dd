/**
 * The continue token of a list page read from the page's first bytes, before the rest has arrived: a
 * kube-apiserver writes a built-in list as `{"kind":…,"apiVersion":…,"metadata":{…},"items":[…]}`, so
 * the token comes ahead of the items. Only a hint: list-pages.ts uses a request sent with it only when
 * the whole page, once parsed, names the same token. Anything else (items first, as for custom
 * resources; a metadata object that is not complete in the head, or has nested objects) is null.
 */

import { isObj } from '../../common/json-guards.ts';

/** Enough for the kind, apiVersion and a metadata object with a continue token at its cap (4 KiB). */
export const LIST_HEAD_BYTES = 8 << 10;

// Anchored, with no two unbounded repeats side by side, so it runs in time linear in the head.
const HEAD =
  /^\s*\{\s*(?:"(?:kind|apiVersion)"\s*:\s*"[^"\\]{0,256}"\s*,\s*){0,2}"metadata"\s*:\s*(\{[^{}]{0,8192}\})/;

export function continueInHead(head: string, maxLength: number): string | null {
  const meta = HEAD.exec(head)?.[1];
  if (meta === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(meta);
  } catch {
    return null;
  }
  const c = isObj(parsed) ? parsed.continue : null;
  return typeof c === 'string' && c !== '' && c.length <= maxLength ? c : null;
}
