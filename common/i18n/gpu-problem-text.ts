/**
 * The words of a GPU node's problems (`gpuProblem.*`) from their facts (`GpuProblemWords`). Pure; main
 * makes the English `problems` of an inventory entry with it (the CLI and the GpuInventory written to
 * clusters keep those), the window words the same facts in its language. Codes and sub-codes are looked
 * up in fixed tables, so facts from a cluster (a controller's status) cannot name another catalog key;
 * an unknown code or a missing value gives null, and the caller shows the English sentence instead.
 */
import { own } from '../dict.ts';
import type { GpuNodeEntry, GpuProblemWords } from '../inventory.ts';
import type { MessageKey } from './catalog-types.ts';
import type { Translator } from './translator.ts';

/** Why a value was refused (main/inventory/parse.ts ParseFailure). */
const WHY: Readonly<Record<string, MessageKey>> = {
  empty: 'gpuProblem.whyEmpty',
  negative: 'gpuProblem.whyNegative',
  notWhole: 'gpuProblem.whyNotWhole',
  tooLarge: 'gpuProblem.whyTooLarge',
  tooLargeQuantity: 'gpuProblem.whyTooLargeQuantity',
};

/** What the inventory made of a refused label. */
const THEN: Readonly<Record<string, MessageKey>> = {
  zeroGpus: 'gpuProblem.thenZeroGpus',
  memoryUnknown: 'gpuProblem.thenMemoryUnknown',
  profileZero: 'gpuProblem.thenProfileZero',
  replicasUnknown: 'gpuProblem.thenReplicasUnknown',
};

const HIDDEN_WHAT: Readonly<Record<string, MessageKey>> = {
  noResource: 'gpuProblem.noResource',
  zeroCapacity: 'gpuProblem.zeroCapacity',
};

const HIDDEN_WHY: Readonly<Record<string, MessageKey>> = {
  pluginDown: 'gpuProblem.pluginDown',
  expectedWith: 'gpuProblem.expectedWith',
  passedThrough: 'gpuProblem.passedThrough',
};

export type GpuProblemCode =
  | 'labelEmpty'
  | 'labelValue'
  | 'quantityValue'
  | 'withdrawn'
  | 'aboveCapacity'
  | 'migDisagree'
  | 'hiddenGpus';

type Vars = Readonly<Record<string, string>>;

function pick(vars: Vars, ...names: string[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = own(vars, n);
    if (typeof v !== 'string') return null;
    out[n] = v;
  }
  return out;
}

function sub(table: Readonly<Record<string, MessageKey>>, code: string | undefined): MessageKey | null {
  return code === undefined ? null : (own(table, code) ?? null);
}

/** The sentence in `tr`'s language, or null when the facts are not ones this version knows. */
export function gpuProblemText(p: GpuProblemWords, tr: Translator): string | null {
  const v = p.vars;
  switch (p.code) {
    case 'labelEmpty': {
      const a = pick(v, 'label');
      return a && tr.t('gpuProblem.labelEmpty', a);
    }
    case 'labelValue': {
      const a = pick(v, 'label', 'value');
      const why = sub(WHY, own(v, 'why'));
      const result = sub(THEN, own(v, 'result'));
      if (!a || !why || !result) return null;
      return tr.t('gpuProblem.labelValue', {
        ...a,
        why: tr.t(why, { max: own(v, 'max') ?? '' }),
        result: tr.t(result),
      });
    }
    case 'quantityValue': {
      const a = pick(v, 'resource', 'field', 'value');
      const why = sub(WHY, own(v, 'why'));
      return a && why && tr.t('gpuProblem.quantityValue', { ...a, why: tr.t(why, { max: '' }) });
    }
    case 'withdrawn': {
      const a = pick(v, 'resource', 'withdrawn', 'capacity');
      return a && tr.t('gpuProblem.withdrawn', a);
    }
    case 'aboveCapacity': {
      const a = pick(v, 'resource', 'allocatable', 'capacity');
      return a && tr.t('gpuProblem.aboveCapacity', a);
    }
    case 'migDisagree': {
      const a = pick(v, 'said', 'offered');
      if (!a) return null;
      const offers =
        a.offered === ''
          ? tr.t('gpuProblem.migNone')
          : tr.t('gpuProblem.migSome', { offered: a.offered ?? '' });
      return tr.t('gpuProblem.migDisagree', { said: a.said ?? '', offers });
    }
    case 'hiddenGpus': {
      const a = pick(v, 'resource', 'product');
      const what = sub(HIDDEN_WHAT, own(v, 'what'));
      const why = sub(HIDDEN_WHY, own(v, 'why'));
      if (!a || !what || !why) return null;
      const others = own(v, 'others') ?? '';
      return tr.t('gpuProblem.hiddenGpus', {
        what: tr.t(what, { resource: a.resource ?? '' }),
        product: a.product ?? '',
        why: tr.t(why, { label: own(v, 'label') ?? '', workload: own(v, 'workload') ?? '' }),
        under: others === '' ? '' : tr.t('gpuProblem.advertises', { others }),
      });
    }
    default:
      return null;
  }
}

/**
 * An entry's problems in `tr`'s language: each from its facts, else (facts this version does not know,
 * or an entry written without them) the English sentence as it came.
 */
export function gpuProblemTexts(
  entry: Pick<GpuNodeEntry, 'problems' | 'problem_words'>,
  tr: Translator,
): string[] {
  const en = entry.problems ?? [];
  const words = entry.problem_words;
  if (!words || words.length !== en.length) return en;
  return en.map((sentence, i) => {
    const w = words[i];
    return (w && gpuProblemText(w, tr)) ?? sentence;
  });
}
