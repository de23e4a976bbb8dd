/** What a server says its kube-system uid is, read as hostile input: only a plausible uid is a key. */
import { describe, expect, it } from 'vitest';
import { namespaceUid } from './cluster-uids.ts';

describe('namespaceUid', () => {
  it.each([
    [
      'a real uid',
      { metadata: { uid: '3f1c2a9e-8b7d-4c1e-9a2b-0d5e6f7a8b9c' } },
      '3f1c2a9e-8b7d-4c1e-9a2b-0d5e6f7a8b9c',
    ],
    ['no metadata', { kind: 'Namespace' }, null],
    ['a number', { metadata: { uid: 42 } }, null],
    ['an empty uid', { metadata: { uid: '' } }, null],
    ['a uid with a newline', { metadata: { uid: 'abcdefgh\nforged' } }, null],
    ['a 10,000-character uid', { metadata: { uid: 'a'.repeat(10_000) } }, null],
    ['not an object', 'kube-system', null],
    ['null', null, null],
  ])('%s', (_what, body, want) => {
    expect(namespaceUid(body)).toBe(want);
  });
});
