import { describe, expect, it } from 'vitest';
import { currentContextFile } from './current-context-file.ts';

const exists = (present: string[]) => (f: string) => present.includes(f);

describe('currentContextFile: where kubectl writes current-context (client-go GetDefaultFilename)', () => {
  it('is the --kubeconfig file, even when it does not exist', () => {
    expect(currentContextFile({ source: 'flag', files: ['/k/x'] }, exists([]))).toBe('/k/x');
  });
  it('is the only KUBECONFIG file', () => {
    expect(currentContextFile({ source: 'env', files: ['/k/a'] }, exists([]))).toBe('/k/a');
  });
  it('is the first KUBECONFIG file that exists, whether or not it sets current-context', () => {
    expect(
      currentContextFile({ source: 'env', files: ['/k/a', '/k/b', '/k/c'] }, exists(['/k/b', '/k/c'])),
    ).toBe('/k/b');
    expect(currentContextFile({ source: 'env', files: ['/k/a', '/k/b'] }, exists(['/k/a', '/k/b']))).toBe(
      '/k/a',
    );
  });
  it('is the last KUBECONFIG file when none exists', () => {
    expect(currentContextFile({ source: 'env', files: ['/k/a', '/k/b'] }, exists([]))).toBe('/k/b');
  });
  it('is ~/.kube/config otherwise', () => {
    expect(currentContextFile({ source: 'default', files: ['/home/u/.kube/config'] }, exists([]))).toBe(
      '/home/u/.kube/config',
    );
  });
});
