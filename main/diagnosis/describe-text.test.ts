import { describe, expect, it } from 'vitest';
import { NOW } from '../../renderer/fixtures/homelab.ts';
import { homelabDetail } from '../../renderer/fixtures/node-detail.ts';
import { formatDescribe } from './describe-text.ts';

describe('formatDescribe', () => {
  it('prints a kubeconfig context name with escapes and newlines as one clean line', () => {
    // Context names come from the kubeconfig as written, unsanitized: the text sink gates them.
    const context = 'lab\u001b]0;pwned\u0007\u001b[2J\nForged: line';
    const detail = homelabDetail('omen', { context });
    if (!detail) throw new Error('no fixture');
    const text = formatDescribe(detail, NOW);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    const line = text.split('\n').find((l) => l.startsWith('Context:')) ?? '';
    expect(line).toContain('lab');
    expect(text.split('\n').some((l) => l.startsWith('Forged:'))).toBe(false);
  });
});
