/**
 * The words of the optional free-GPU alerts (`alert.noFree.*`, `alert.freeBack.*`) in one language, from
 * their facts. Pure; main makes the English ones with it (the CLI prints those). The product label is
 * made of the cluster's labels and kept as it is.
 */
import type { AlertWords } from '../alerts.ts';
import type { Translator } from './translator.ts';

type Words<K> = Extract<AlertWords, { kind: K }>;

export function noFreeWords(
  context: string,
  w: Words<'no-free-gpu'>,
  duration: (ms: number) => string,
  tr: Translator,
) {
  const parts = [
    tr.t('alert.noFree.body', {
      product: w.product,
      allocatable: w.allocatable,
      duration: duration(w.forMs),
    }),
  ];
  if (w.pending > 0) parts.push(tr.t('alert.noFree.pending', { count: w.pending }));
  return {
    title: tr.t('alert.noFree.title', { context, product: w.product }),
    body: parts.join(tr.t('common.sentenceSeparator')),
  };
}

export function freeBackWords(
  context: string,
  w: Words<'free-gpu-back'>,
  free: number,
  duration: (ms: number) => string,
  tr: Translator,
) {
  return {
    title: tr.t('alert.freeBack.title', { context, product: w.product }),
    body: tr.t('alert.freeBack.body', { product: w.product, count: free, duration: duration(w.afterMs) }),
  };
}
