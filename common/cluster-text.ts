/**
 * Text that came from outside (an API server's message, a condition's reason, an exec plugin's stderr, a
 * node or label name) is untrusted: admission webhooks and kubelets write whatever they like, including
 * terminal escape sequences and fake second lines. `clusterText` is the one gate such text passes before
 * it reaches a terminal, a log line, a notification or the window.
 */

/** The longest cluster text shown anywhere (messages are cut with an ellipsis after this many characters). */
export const CLUSTER_TEXT_MAX = 300;

/**
 * The longest sentence shown or logged anywhere: our own words around one capped cluster fragment. Sinks
 * (KubeError, the CLI's stderr, the logger) pass whole sentences through `clusterText(s, SENTENCE_MAX)`.
 */
export const SENTENCE_MAX = 600;

// ESC-introduced sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), and two-character escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this file's job
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
// C0 and C1 controls, DEL, the Unicode line/paragraph separators, the bidi overrides, isolates and marks
// (LRM, RLM, ALM) that can forge or reorder what a reader sees, zero-width characters and the BOM.
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this file's job
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]+/g;

/** True when `text` holds any character the text gate would replace (a name with one is refused, not cleaned). */
export function hasControlChars(text: string): boolean {
  CONTROLS.lastIndex = 0;
  const found = CONTROLS.test(text);
  CONTROLS.lastIndex = 0;
  return found;
}

/**
 * One line of at most `max` characters: escape sequences removed, every control character (newlines and
 * tabs included) turned into a space, runs of white space folded, cut with "…" past `max`. Non-strings
 * give "". The input is cut before it is scanned, so a 2 MB message costs no more than a short one.
 */
export function clusterText(value: unknown, max: number = CLUSTER_TEXT_MAX): string {
  if (typeof value !== 'string' || value.length === 0) return '';
  // Scan a bounded prefix: enough to fill `max` even after removing escapes from a hostile start.
  const head = value.length > max * 8 + 64 ? value.slice(0, max * 8 + 64) : value;
  const cleaned = head.replace(ESCAPES, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(cleaned);
  const cut = head.length !== value.length;
  if (!cut && chars.length <= max) return cleaned;
  return `${chars
    .slice(0, Math.min(chars.length, Math.max(0, max - 1)))
    .join('')
    .trimEnd()}…`;
}

/** Like `clusterText`, but keeps "" out: an empty or missing value becomes `fallback`. */
export function clusterTextOr(value: unknown, fallback: string, max: number = CLUSTER_TEXT_MAX): string {
  const text = clusterText(value, max);
  return text === '' ? fallback : text;
}
