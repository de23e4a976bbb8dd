/**
 * Pure: refusals of a kubectl context switch (`KubeconfigWords`) worded from their facts, in the
 * window's language or in English for the CLI and logs (the same keys, `kubectl.words.*`). A sub-code
 * this version does not know gives null, and the caller shows the English sentence that came with it.
 */
import { own } from '../dict.ts';
import type { KubeconfigWords } from '../kubeconfig-words.ts';
import type { MessageKey, MessageVars } from './catalog-types.ts';

type T = (key: MessageKey, vars?: MessageVars) => string;

const NAME_FAULT: Readonly<Record<string, MessageKey>> = {
  empty: 'kubectl.words.badName.empty',
  tooLong: 'kubectl.words.badName.tooLong',
  control: 'kubectl.words.badName.control',
};

/** `kubeNoContext` → `kubectl.words.noContext`: the code without its area prefix, first letter lowered. */
type Key<C extends string> = C extends `kube${infer R}` ? `kubectl.words.${Uncapitalize<R>}` : never;
const keyOf = <C extends KubeconfigWords['code']>(code: C): Key<C> =>
  `kubectl.words.${code.charAt(4).toLowerCase()}${code.slice(5)}` as Key<C>;

export function kubeconfigWordsText(w: KubeconfigWords, t: T): string | null {
  if (w.code === 'kubeBadName') {
    const key = own(NAME_FAULT, w.fault);
    return key ? t(key, { max: w.max }) : null;
  }
  const { code, ...vars } = w;
  return t(keyOf(code), vars);
}
