/**
 * Sets kubectl's current context, the edge around the pure parts: load and check (prepareUseContext),
 * then write (commitUseContext). The file is the one kubectl would write (current-context-file.ts), the
 * edit changes only the current-context value (current-context-edit.ts), and the write is atomic
 * (kubeconfig-write.ts). Every refusal is a UseContextError: a kind and one sentence; nothing is written.
 * Only an explicit request of the user calls this: monitoring never changes a kubeconfig by itself.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterText } from '../../common/cluster-text.ts';
import { wordsEnglish } from '../../common/i18n/words-text.ts';
import type { KubeconfigWords } from '../../common/kubeconfig-words.ts';
import { setCurrentContext } from './current-context-edit.ts';
import { currentContextFile } from './current-context-file.ts';
import { type KubeconfigLocateOptions, loadKubeconfig, locateKubeconfigFiles } from './kubeconfig.ts';
import { CONTEXT_NAME_MAX, contextNameFault, contextNameProblem } from './kubeconfig-entries.ts';
import {
  type FileStamp,
  KUBECONFIG_MAX_BYTES,
  readStamped,
  KubeconfigWriteError as UseContextError,
  writeKubeconfigAtomically,
} from './kubeconfig-write.ts';

// The one rule for a context name, shared with the loader (kubeconfig-entries.ts).
export { CONTEXT_NAME_MAX, contextNameProblem, UseContextError };

export interface UseContextPlan {
  name: string;
  /** The file as the user named it (flag, KUBECONFIG entry or ~/.kube/config). */
  file: string;
  /** The merged current context before the change. */
  previous: string | null;
  /** What was read, to refuse a write over a file that changed since; null when nothing is written. */
  read: FileStamp | null;
  /** The new content; null when the current context already is `name` (kubectl writes nothing then). */
  text: string | null;
}

export interface UseContextResult {
  name: string;
  file: string;
  previous: string | null;
  changed: boolean;
}

/** A path under the home folder as `~/…`, as the user would type it (the window names the file it writes). */
export function shownPath(file: string, home: string = os.homedir()): string {
  return home !== '' && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

/** The file a switch would write now, as kubectl picks it; null when there is none. */
export function useContextFile(opts: KubeconfigLocateOptions): string | null {
  return currentContextFile(locateKubeconfigFiles(opts), (f) => fs.existsSync(f));
}

const noContext = (name: string, files: readonly string[]): KubeconfigWords => ({
  code: 'kubeNoContext',
  name: clusterText(name, 120),
  files: files.join(', '),
});

/** The one sentence for a context name the kubeconfig does not have (CLI, window and tray alike). */
export function noSuchContext(name: string, files: readonly string[]): string {
  return wordsEnglish(noContext(name, files));
}

export function prepareUseContext(name: string, opts: KubeconfigLocateOptions): UseContextPlan {
  const fault = contextNameFault(name);
  if (fault) throw new UseContextError('invalid', { code: 'kubeBadName', fault, max: CONTEXT_NAME_MAX });
  const load = loadKubeconfig(opts);
  if (load.kind === 'none')
    throw new UseContextError(
      'config',
      load.source === 'flag'
        ? { code: 'kubeFlagMissing', file: load.searched[0] ?? '' }
        : { code: 'kubeNoConfig', files: load.searched.join(', ') },
    );
  const file = useContextFile(opts);
  if (file === null) throw new UseContextError('config', { code: 'kubeNoFile' });
  const broken = load.errors.find((e) => e.file === file);
  if (broken?.tooLarge)
    throw new UseContextError('too-large', {
      code: 'kubeTooLarge',
      file,
      mib: KUBECONFIG_MAX_BYTES / 1024 / 1024,
    });
  // The loader's sentence says what is wrong; it follows the worded one for the CLI and the logs.
  if (broken) throw new UseContextError('invalid', { code: 'kubeBroken', file }, broken.message);
  if (!load.contexts.some((c) => c.name === name))
    throw new UseContextError('not-found', noContext(name, load.files));
  if (load.currentContext === name) return { name, file, previous: name, read: null, text: null };
  const read = readStamped(file);
  const edit = setCurrentContext(read.text, name);
  if (!edit.ok) throw new UseContextError('invalid', { code: 'kubeNoEdit', file }, edit.message);
  return { name, file, previous: load.currentContext, read, text: edit.changed ? edit.text : null };
}

export function commitUseContext(plan: UseContextPlan): UseContextResult {
  const { name, file, previous } = plan;
  if (plan.text === null || plan.read === null) return { name, file, previous, changed: false };
  writeKubeconfigAtomically(file, plan.read, plan.text);
  return { name, file, previous, changed: true };
}

/** `kubectl config use-context NAME`, changing only that value; throws a UseContextError when it refuses. */
export function useContext(name: string, opts: KubeconfigLocateOptions): UseContextResult {
  return commitUseContext(prepareUseContext(name, opts));
}
