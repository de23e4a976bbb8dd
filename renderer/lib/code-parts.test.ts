import { describe, expect, it } from 'vitest';
import { codeParts } from './code-parts.ts';

describe('codeParts', () => {
  it('sets each literal name apart wherever the sentence has it, longest first at one place', () => {
    expect(
      codeParts('Run npx gpu-fleet sim, then set KUBECONFIG.', ['KUBECONFIG', 'npx gpu-fleet sim']),
    ).toEqual([
      { text: 'Run ', code: false },
      { text: 'npx gpu-fleet sim', code: true },
      { text: ', then set ', code: false },
      { text: 'KUBECONFIG', code: true },
      { text: '.', code: false },
    ]);
    expect(codeParts('ab', ['a', 'ab'])).toEqual([{ text: 'ab', code: true }]);
    expect(codeParts('이 KUBECONFIG', ['KUBECONFIG'])).toEqual([
      { text: '이 ', code: false },
      { text: 'KUBECONFIG', code: true },
    ]);
  });

  it('is the sentence itself without names', () => {
    expect(codeParts('plain', [])).toEqual([{ text: 'plain', code: false }]);
    expect(codeParts('', ['x'])).toEqual([]);
  });
});
