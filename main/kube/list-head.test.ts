import { describe, expect, it } from 'vitest';
import { continueInHead } from './list-head.ts';

const TOKEN = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTY0MDAsInN0YXJ0IjoiL25vZGUtM1x1MDAwMCJ9';
const MAX = 4096;

describe('continueInHead', () => {
  it('reads the token of a built-in list head, compact or pretty, cut anywhere after its metadata', () => {
    const compact = `{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"16400","continue":"${TOKEN}","remainingItemCount":4},"items":[{"metadata":{"na`;
    expect(continueInHead(compact, MAX)).toBe(TOKEN);
    // As the real API server prints it with ?pretty (real-api/03-list-paging-selectors.txt).
    const pretty = `{\n  "kind": "NodeList",\n  "apiVersion": "v1",\n  "metadata": {\n    "resourceVersion": "16400",\n    "continue": "${TOKEN}",\n    "remainingItemCount": 4\n  },\n  "items": [\n`;
    expect(continueInHead(pretty, MAX)).toBe(TOKEN);
  });

  it('is null when the head names no next page', () => {
    expect(
      continueInHead(
        '{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[',
        MAX,
      ),
    ).toBeNull();
    expect(
      continueInHead(
        '{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":""},"items":[',
        MAX,
      ),
    ).toBeNull();
  });

  it.each([
    [
      'items first (custom resources: metadata comes last)',
      `{"apiVersion":"x/v1","items":[{"metadata":{"continue":"${TOKEN}"}}],"kind":"XList","metadata":{"continue":"${TOKEN}"}}`,
    ],
    [
      'metadata cut off by the end of the head',
      `{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"${TOKEN.slice(0, 20)}`,
    ],
    [
      'a nested object in the metadata',
      `{"kind":"NodeList","metadata":{"x":{},"continue":"${TOKEN}"},"items":[`,
    ],
    ['a continue token that is not a string', '{"kind":"NodeList","metadata":{"continue":7},"items":['],
    ['a token over the cap', `{"kind":"NodeList","metadata":{"continue":"${'a'.repeat(MAX + 1)}"},"items":[`],
    ['metadata that is not JSON', '{"kind":"NodeList","metadata":{continue:"t"},"items":['],
    [
      'another key before the metadata',
      `{"kind":"NodeList","extra":"1","metadata":{"continue":"${TOKEN}"},"items":[`,
    ],
    ['a string where the kind would be', `["kind","metadata",{"continue":"${TOKEN}"}]`],
    ['whitespace only', ' '.repeat(8192)],
    ['an unclosed metadata object of spaces', `{"kind":"NodeList","metadata":{${' '.repeat(8000)}`],
  ])('is null for %s', (_what, head) => {
    expect(continueInHead(head, MAX)).toBeNull();
  });
});
