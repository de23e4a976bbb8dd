/**
 * Why switching kubectl's context was refused (main/kube/use-context.ts, kubeconfig-write.ts), as facts
 * the window words in its language and the CLI in English, from the same catalog keys
 * (`kubectl.words.*`, common/i18n/kubeconfig-words-text.ts). The values are paths as the user would
 * type them, context names, lock names and file-system codes, each already passed through the text
 * gate by the engine. Codes start with `kube` so they never meet a forwarding code (common/words.ts).
 */

/** Why a context name was refused (main/kube/kubeconfig-entries.ts contextNameProblem). */
export type ContextNameFault = 'empty' | 'tooLong' | 'control';

export type KubeconfigWords =
  | { code: 'kubeBadName'; fault: ContextNameFault; max: number }
  /** No kubeconfig at all; `files`: where it looked, joined. */
  | { code: 'kubeNoConfig'; files: string }
  /** The --kubeconfig file does not exist. */
  | { code: 'kubeFlagMissing'; file: string }
  | { code: 'kubeNoFile' }
  /** The file kubectl would write does not load as a kubeconfig (the loader's detail stays in English logs). */
  | { code: 'kubeBroken'; file: string }
  | { code: 'kubeNoContext'; name: string; files: string }
  /** The edit of current-context was refused (an unsupported layout, YAML that does not parse). */
  | { code: 'kubeNoEdit'; file: string }
  | { code: 'kubeMissing'; file: string }
  /** `errno`: the file system's code (EACCES, EIO …). */
  | { code: 'kubeUnreadable'; file: string; errno: string }
  | { code: 'kubeNotFile'; file: string }
  | { code: 'kubeTooLarge'; file: string; mib: number }
  /** `mode`: the file's permission bits in octal, as `ls -l` would let one read them. */
  | { code: 'kubeReadOnly'; file: string; mode: string }
  | { code: 'kubeFolderLocked'; file: string; dir: string }
  | { code: 'kubeNotUtf8'; file: string }
  | { code: 'kubeLockHeld'; lock: string }
  | { code: 'kubeLockFailed'; lock: string; errno: string }
  | { code: 'kubeChanged'; file: string }
  | { code: 'kubeReplaceFailed'; file: string; errno: string };

export type KubeconfigWordsCode = KubeconfigWords['code'];

/** Each code's values, for the check where words arrive from another process (common/words.ts). */
export const KUBECONFIG_WORDS_VALUES: Readonly<Record<KubeconfigWordsCode, readonly string[]>> = {
  kubeBadName: ['fault', 'max'],
  kubeNoConfig: ['files'],
  kubeFlagMissing: ['file'],
  kubeNoFile: [],
  kubeBroken: ['file'],
  kubeNoContext: ['name', 'files'],
  kubeNoEdit: ['file'],
  kubeMissing: ['file'],
  kubeUnreadable: ['file', 'errno'],
  kubeNotFile: ['file'],
  kubeTooLarge: ['file', 'mib'],
  kubeReadOnly: ['file', 'mode'],
  kubeFolderLocked: ['file', 'dir'],
  kubeNotUtf8: ['file'],
  kubeLockHeld: ['lock'],
  kubeLockFailed: ['lock', 'errno'],
  kubeChanged: ['file'],
  kubeReplaceFailed: ['file', 'errno'],
};
