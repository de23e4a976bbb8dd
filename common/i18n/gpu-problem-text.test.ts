/** GPU problem facts worded per language; facts this version does not know fall back to the English sentence. */
import { describe, expect, it } from 'vitest';
import { gpuProblemText, gpuProblemTexts } from './gpu-problem-text.ts';
import { translator } from './translator.ts';

const en = translator('en');
const ko = translator('ko');
const withdrawn = { code: 'withdrawn', vars: { resource: 'nvidia.com/gpu', withdrawn: '1', capacity: '4' } };

describe('gpuProblemText', () => {
  it('words the same facts in English and Korean', () => {
    expect(gpuProblemText(withdrawn, en)).toBe('1 of 4 nvidia.com/gpu withdrawn by the device plugin');
    expect(gpuProblemText(withdrawn, ko)).toBe('nvidia.com/gpu 4개 중 1개를 디바이스 플러그인이 회수함');
  });

  it.each([
    ['an unknown code', { code: 'fromTheFuture', vars: {} }],
    ['a code that is an Object.prototype name', { code: 'toString', vars: {} }],
    ['a missing value', { code: 'withdrawn', vars: { resource: 'nvidia.com/gpu' } }],
    [
      'a sub-code that is no catalog entry',
      { code: 'labelValue', vars: { label: 'l', value: '"x"', why: 'constructor', result: 'zeroGpus' } },
    ],
    [
      'an inherited value',
      { code: 'labelEmpty', vars: Object.create({ label: 'inherited' }) as Record<string, string> },
    ],
  ])('%s gives null', (_what, words) => {
    expect(gpuProblemText(words, ko)).toBeNull();
  });

  it('an entry shows each sentence from its facts, and the English where the facts are unknown or do not match', () => {
    const problems = ['1 of 4 nvidia.com/gpu withdrawn by the device plugin', 'something newer'];
    const words = [withdrawn, { code: 'fromTheFuture', vars: {} }];
    expect(gpuProblemTexts({ problems, problem_words: words }, ko)).toEqual([
      'nvidia.com/gpu 4개 중 1개를 디바이스 플러그인이 회수함',
      'something newer',
    ]);
    expect(gpuProblemTexts({ problems, problem_words: [withdrawn] }, ko)).toEqual(problems);
    expect(gpuProblemTexts({ problems }, ko)).toEqual(problems);
  });
});
