/**
 * Reads the four GPU Feature Discovery labels of SPEC.md (product, count, memory, workload) from a
 * node, turning malformed values into problem sentences instead of exceptions or wrong numbers.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { GpuProblemWords } from '../../common/inventory.ts';
import { LABEL } from './labels.ts';
import { MAX_GPUS_PER_NODE, MAX_MEMORY_MIB, parseWholeNumber, quote } from './parse.ts';
import { problem } from './problem.ts';

/** What the inventory makes of a label it cannot believe (gpuProblem.then*). */
export type LabelConsequence = 'zeroGpus' | 'memoryUnknown' | 'profileZero' | 'replicasUnknown';

/** Label values shown in the inventory are cut past this (valid ones have at most 63 characters). */
const MAX_LABEL_SHOWN = 128;

export interface GpuLabels {
  product: string | null;
  /** 0 when missing or malformed. */
  count: number;
  memory: number | null;
  workload: string | null;
  /** Values that could not be believed, as facts (problem.ts words them). */
  problems: GpuProblemWords[];
}

export function readGpuLabels(labels: Readonly<Record<string, string>>): GpuLabels {
  const problems: GpuProblemWords[] = [];
  const rawProduct = labels[LABEL.product];
  let product: string | null = null;
  if (rawProduct !== undefined) {
    if (rawProduct.trim() === '') problems.push(problem('labelEmpty', { label: LABEL.product }));
    // A real API server allows 63 label characters of [A-Za-z0-9-_.]; a hostile one may send anything.
    else product = clusterText(rawProduct, MAX_LABEL_SHOWN);
  }
  const count = readNumber(labels, LABEL.count, MAX_GPUS_PER_NODE, 'zeroGpus', problems) ?? 0;
  const memory = readNumber(labels, LABEL.memory, MAX_MEMORY_MIB, 'memoryUnknown', problems);
  const rawWorkload = labels[LABEL.workload];
  const workload =
    rawWorkload === undefined || rawWorkload.trim() === '' ? null : clusterText(rawWorkload, MAX_LABEL_SHOWN);
  return { product, count, memory, workload, problems };
}

/** A whole-number label, or null (with a problem when it was there but unbelievable). */
export function readNumber(
  labels: Readonly<Record<string, string>>,
  key: string,
  max: number,
  consequence: LabelConsequence,
  problems: GpuProblemWords[],
): number | null {
  const raw = labels[key];
  if (raw === undefined) return null;
  const parsed = parseWholeNumber(raw, max);
  if (parsed.ok) return parsed.value;
  problems.push(
    problem('labelValue', {
      label: key,
      value: quote(raw),
      why: parsed.code,
      ...(parsed.max === undefined ? {} : { max: parsed.max }),
      result: consequence,
    }),
  );
  return null;
}
