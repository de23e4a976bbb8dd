import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { setCurrentContext, yamlScalar } from './current-context-edit.ts';

const edited = (text: string, name: string) => {
  const r = setCurrentContext(text, name);
  if (!r.ok) throw new Error(r.message);
  return r.text;
};

describe('setCurrentContext: only the value changes', () => {
  it.each([
    [
      'a plain value with a comment',
      'a: 1\ncurrent-context: old # note\nb: 2\n',
      'a: 1\ncurrent-context: new # note\nb: 2\n',
    ],
    ['a double-quoted value', 'current-context: "old"\n', 'current-context: "new"\n'],
    ['a single-quoted value', "current-context: 'old'\n", "current-context: 'new'\n"],
    ['an empty value', 'current-context:\nb: 2\n', 'current-context: new\nb: 2\n'],
    ['an empty string', 'current-context: ""\n', 'current-context: "new"\n'],
    ['CRLF line endings', 'a: 1\r\ncurrent-context: old\r\n', 'a: 1\r\ncurrent-context: new\r\n'],
    [
      'an indented flow style file',
      'contexts: [ {name: x} ]\ncurrent-context:   old   \n',
      'contexts: [ {name: x} ]\ncurrent-context:   new   \n',
    ],
    [
      'JSON',
      '{\n  "kind": "Config",\n  "current-context": "old"\n}\n',
      '{\n  "kind": "Config",\n  "current-context": "new"\n}\n',
    ],
  ])('%s', (_what, before, after) => {
    expect(edited(before, 'new')).toBe(after);
  });

  it.each([
    [
      'a file without the key',
      '# c\napiVersion: v1\nusers: []\n',
      '# c\napiVersion: v1\nusers: []\ncurrent-context: new\n',
    ],
    ['a file without a final newline', 'apiVersion: v1', 'apiVersion: v1\ncurrent-context: new'],
    ['CRLF without the key', 'a: 1\r\n', 'a: 1\r\ncurrent-context: new\r\n'],
    ['an empty file', '', 'current-context: new\n'],
    ['a file of comments only', '# nothing yet\n', '# nothing yet\ncurrent-context: new\n'],
    ['JSON without the key', '{"kind": "Config"}', '{"current-context": "new", "kind": "Config"}'],
    ['an empty JSON object', '{}', '{"current-context": "new"}'],
  ])('adds the key to %s', (_what, before, after) => {
    expect(edited(before, 'new')).toBe(after);
  });

  it('reports no change when the value already is the name', () => {
    expect(setCurrentContext('current-context: same\n', 'same')).toEqual({
      ok: true,
      text: 'current-context: same\n',
      changed: false,
    });
  });

  it.each([
    ['an alias', 'x: &a old\ncurrent-context: *a\n'],
    ['an anchored value', 'current-context: &a old\ny: *a\n'],
    ['a block scalar', 'current-context: |\n  old\n'],
    ['a tag other than !!str', 'current-context: !!binary b2xk\n'],
    ['a mapping as value', 'current-context: {a: 1}\n'],
    ['a top mapping that is indented', '  a: 1\n  b: 2\n'],
  ])('refuses %s instead of rewriting the file', (_what, text) => {
    expect(setCurrentContext(text, 'new')).toMatchObject({ ok: false, reason: 'unsupported' });
  });

  it.each([
    ['broken YAML', 'contexts: [\n'],
    ['a duplicate key', 'current-context: a\ncurrent-context: b\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a list at the top', '- a\n- b\n'],
    ['a scalar at the top', 'just text\n'],
  ])('refuses %s as not a kubeconfig', (_what, text) => {
    expect(setCurrentContext(text, 'new')).toMatchObject({ ok: false, reason: 'unparsable' });
  });
});

describe('yamlScalar', () => {
  it.each([
    ['kind-kind', 'kind-kind'],
    ['user@cluster', 'user@cluster'],
    ['arn:aws:eks:us-east-1:1:cluster/x', 'arn:aws:eks:us-east-1:1:cluster/x'],
    ['on', '"on"'],
    ['No', '"No"'],
    ['y', '"y"'],
    ['null', '"null"'],
    ['~', '"~"'],
    ['0123', '"0123"'],
    ['1e3', '"1e3"'],
    ['2026-01-01', '"2026-01-01"'],
    ['a: b', '"a: b"'],
    ['a #b', '"a #b"'],
    ['x,y', '"x,y"'],
    ['-dash', '"-dash"'],
    ['ünï', '"ünï"'],
  ])('%s → %s, read back as the same string', (name, scalar) => {
    expect(yamlScalar(name)).toBe(scalar);
    expect(parse(`k: ${scalar}`)).toEqual({ k: name });
  });
  it('doubles single quotes in a single-quoted value', () => {
    expect(yamlScalar("it's", 'QUOTE_SINGLE')).toBe("'it''s'");
  });
});
