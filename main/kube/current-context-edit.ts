/**
 * Pure: the text of one kubeconfig file with its `current-context` set to a new name, and nothing else
 * changed. The file is parsed with the `yaml` Document API only to find where the value sits; the edit
 * is a splice of the original text, so comments, key order, quoting, indentation and line endings stay
 * byte for byte (re-serialising the Document would normalise them). A file without the key gets one line
 * (block style) or one entry (a JSON / flow mapping). The result is parsed again and must equal the old
 * content with only `current-context` changed, else the edit is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import { isAlias, isMap, isScalar, parseDocument, type Scalar } from 'yaml';
import { clusterText } from '../../common/cluster-text.ts';

export type ContextEdit =
  | { ok: true; text: string; changed: boolean }
  | { ok: false; reason: 'unparsable' | 'unsupported'; message: string };

const KEY = 'current-context';
const STR_TAG = 'tag:yaml.org,2002:str';
/**
 * kubectl reads YAML through go-yaml's YAML 1.1 rules, where `yes`, `on`, `off`, `y`, `n`, `~`, `null`,
 * numbers and dates are not strings: a plain scalar is written only for names that are strings in both
 * YAML 1.1 and 1.2 (and safe inside a flow mapping), everything else double-quoted.
 */
const PLAIN_SAFE = /^[A-Za-z_][-A-Za-z0-9_./@]*(:[-A-Za-z0-9_./@]+)*$/;
const YAML11_WORDS = /^(y|yes|n|no|true|false|on|off|null)$/i;

/** The name as a YAML scalar kubectl reads back as exactly that string. */
export function yamlScalar(name: string, style: Scalar['type'] = 'PLAIN'): string {
  if (style === 'QUOTE_SINGLE') return `'${name.replaceAll("'", "''")}'`;
  if (style === 'PLAIN' && PLAIN_SAFE.test(name) && !YAML11_WORDS.test(name)) return name;
  // Names are free of control characters (validated before), so JSON's escaping is valid YAML here.
  return JSON.stringify(name);
}

function parse(text: string) {
  const doc = parseDocument(text, { prettyErrors: false });
  const first = doc.errors[0];
  if (first) return { ok: false as const, message: first.message.split('\n')[0] ?? 'invalid YAML' };
  return { ok: true as const, doc };
}

/** The new text, or why it cannot be written without rewriting more than the current-context line. */
export function setCurrentContext(text: string, name: string): ContextEdit {
  const parsed = parse(text);
  if (!parsed.ok)
    return {
      ok: false,
      reason: 'unparsable',
      message: `it is not valid YAML (${clusterText(parsed.message, 200)})`,
    };
  const { doc } = parsed;
  const before: unknown = doc.toJS() ?? {};
  const contents = doc.contents;
  if ((contents !== null && !isMap(contents)) || typeof before !== 'object' || Array.isArray(before))
    return {
      ok: false,
      reason: 'unparsable',
      message: 'it is not a kubeconfig (expected a mapping at the top)',
    };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';

  let next: string;
  const pair = contents?.items.find((p) => isScalar(p.key) && p.key.value === KEY);
  if (pair) {
    const value = pair.value;
    if (isScalar(value) && value.value === name) return { ok: true, text, changed: false };
    if (isAlias(value) || !isScalar(value) || !value.range)
      return unsupported('its current-context is not a plain string value');
    if (value.anchor) return unsupported('its current-context value carries an anchor other entries may use');
    if (value.tag !== undefined && value.tag !== STR_TAG)
      return unsupported(`its current-context value has the tag ${clusterText(value.tag, 60)}`);
    if (value.type === 'BLOCK_LITERAL' || value.type === 'BLOCK_FOLDED')
      return unsupported('its current-context is a block scalar');
    const [start, end] = value.range;
    // `current-context:` with nothing after it: the empty value sits right after the colon.
    const scalar = yamlScalar(name, value.type);
    next =
      start === end
        ? `${text.slice(0, start)} ${scalar}${text.slice(end)}`
        : `${text.slice(0, start)}${scalar}${text.slice(end)}`;
  } else if (contents?.flow) {
    // A JSON kubeconfig (or a flow mapping): a first entry right after the opening brace.
    const at = (contents.range?.[0] ?? -1) + 1;
    if (at <= 0 || text[at - 1] !== '{') return unsupported('its top-level mapping could not be located');
    const entry = `"${KEY}": ${JSON.stringify(name)}`;
    next = `${text.slice(0, at)}${entry}${contents.items.length ? ', ' : ''}${text.slice(at)}`;
  } else {
    // A block mapping (or an empty file): one more line at the end, where it ends no other value.
    const line = `${KEY}: ${yamlScalar(name)}`;
    next = text === '' || text.endsWith('\n') ? `${text}${line}${eol}` : `${text}${eol}${line}`;
  }

  const check = parse(next);
  const expected = { ...(before as Record<string, unknown>), [KEY]: name };
  if (!check.ok || !isDeepStrictEqual(check.doc.toJS(), expected))
    return unsupported('setting current-context alone would change other parts of the file');
  return { ok: true, text: next, changed: true };
}

function unsupported(why: string): ContextEdit {
  return {
    ok: false,
    reason: 'unsupported',
    message: `${why}; change it with kubectl config use-context instead`,
  };
}
