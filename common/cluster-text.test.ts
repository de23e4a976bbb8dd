import { describe, expect, it } from 'vitest';
import { CLUSTER_TEXT_MAX, clusterText, clusterTextOr } from './cluster-text';

describe('clusterText', () => {
  it('keeps ordinary text as it is', () => {
    expect(clusterText('Kubelet stopped posting node status.')).toBe('Kubelet stopped posting node status.');
    expect(clusterText('노드 준비 안 됨 · 节点')).toBe('노드 준비 안 됨 · 节点');
  });

  it('removes escape sequences and turns control characters and newlines into one line', () => {
    expect(clusterText('\u001b[2Jcleared\u001b]0;owned title\u0007 text')).toBe('cleared text');
    expect(clusterText('first\nERROR: fake second line\r\n\tend')).toBe('first ERROR: fake second line end');
    expect(clusterText('a\u0000b\u009bc\u202ed\u2028e')).toBe('a b c d e');
    // Bidi marks and zero-width characters can reorder or hide what a reader sees.
    expect(clusterText('a\u200fb\u200bc\u061cd\ufeffe\u2060f\u2067g')).toBe('a b c d e f g');
  });

  it('caps the length with an ellipsis, also for huge inputs', () => {
    const huge = `${'x'.repeat(2_000_000)}`;
    const out = clusterText(huge);
    expect(Array.from(out)).toHaveLength(CLUSTER_TEXT_MAX);
    expect(out.endsWith('…')).toBe(true);
    expect(clusterText('abcdef', 4)).toBe('abc…');
    expect(clusterText('abcd', 4)).toBe('abcd');
  });

  it('marks a cut even when escapes shrank the scanned head below the cap', () => {
    const hostile = `${'\u001b[0m'.repeat(1000)}tail`;
    expect(clusterText(hostile, 10)).toBe('…');
  });

  it('gives "" (or the fallback) for non-strings and blank text', () => {
    expect(clusterText(undefined)).toBe('');
    expect(clusterText(42)).toBe('');
    expect(clusterTextOr('  \n ', 'none')).toBe('none');
  });
});
