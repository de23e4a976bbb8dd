/**
 * A GPU problem of a node as facts (code and values) and its English sentence, made from the same
 * catalog words the window uses (common/i18n/gpu-problem-text.ts). Every derive step collects facts;
 * derive.ts turns them into the entry's `problems` (English: the CLI, the GpuInventory) and
 * `problem_words` (the window words them in its language).
 */
import { type GpuProblemCode, gpuProblemText } from '../../common/i18n/gpu-problem-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import type { GpuProblemWords } from '../../common/inventory.ts';

const EN = translator('en');

export function problem(
  code: GpuProblemCode,
  vars: Readonly<Record<string, string | number>>,
): GpuProblemWords {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) out[k] = String(v);
  return { code, vars: out };
}

/** The English sentence of one problem (the facts are ours, so a sentence always exists). */
export function englishProblem(p: GpuProblemWords): string {
  return gpuProblemText(p, EN) ?? p.code;
}
