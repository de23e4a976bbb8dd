/**
 * For tests: one `KubeconfigWords` of every code, as main/kube makes them (typed per code, so a new code
 * without a sample here does not compile), and the variants whose sub-codes pick another sentence.
 */
import type { KubeconfigWords, KubeconfigWordsCode } from './kubeconfig-words.ts';

const file = '~/.kube/config';

export const KUBECONFIG_WORDS_SAMPLES: {
  readonly [C in KubeconfigWordsCode]: Extract<KubeconfigWords, { code: C }>;
} = {
  kubeBadName: { code: 'kubeBadName', fault: 'control', max: 253 },
  kubeNoConfig: { code: 'kubeNoConfig', files: '~/.kube/config, ~/.kube/lab.yaml' },
  kubeFlagMissing: { code: 'kubeFlagMissing', file: '~/lab/kubeconfig' },
  kubeNoFile: { code: 'kubeNoFile' },
  kubeBroken: { code: 'kubeBroken', file },
  kubeNoContext: { code: 'kubeNoContext', name: 'office', files: file },
  kubeNoEdit: { code: 'kubeNoEdit', file },
  kubeMissing: { code: 'kubeMissing', file },
  kubeUnreadable: { code: 'kubeUnreadable', file, errno: 'EACCES' },
  kubeNotFile: { code: 'kubeNotFile', file },
  kubeTooLarge: { code: 'kubeTooLarge', file, mib: 4 },
  kubeReadOnly: { code: 'kubeReadOnly', file, mode: '400' },
  kubeFolderLocked: { code: 'kubeFolderLocked', file, dir: '~/.kube' },
  kubeNotUtf8: { code: 'kubeNotUtf8', file },
  kubeLockHeld: { code: 'kubeLockHeld', lock: '~/.kube/config.lock' },
  kubeLockFailed: { code: 'kubeLockFailed', lock: '~/.kube/config.lock', errno: 'EROFS' },
  kubeChanged: { code: 'kubeChanged', file },
  kubeReplaceFailed: { code: 'kubeReplaceFailed', file, errno: 'ENOSPC' },
};

export function allKubeconfigWords(): KubeconfigWords[] {
  const names = (['empty', 'tooLong'] as const).map((fault) => ({
    code: 'kubeBadName' as const,
    fault,
    max: 253,
  }));
  return [...Object.values(KUBECONFIG_WORDS_SAMPLES), ...names];
}
