/**
 * The words of the optional free-GPU alerts (`alert.noFree.*`, `alert.freeBack.*`) in one language, from
 * their facts. Pure; main makes the English ones with it (the CLI prints those). The product is worded
 * from its facts in the language (common/free-product-text.ts: the product name is the cluster's label,
 * kept as it is; "shared", "unlabeled GPU" are translated); an alert logged before it carried the facts
 * keeps its English label.
 */
import type { AlertProduct, AlertWords } from '../alerts.ts';
import { productText } from '../free-product-text.ts';
import type { Translator } from './translator.ts';

type Words<K> = Extract<AlertWords, { kind: K }>;

const productOf = (w: { product: string; item?: AlertProduct }, tr: Translator) =>
  w.item === undefined ? w.product : productText({ ...w.item, label: w.product }, tr);

export function noFreeWords(
  context: string,
  w: Words<'no-free-gpu'>,
  duration: (ms: number) => string,
  tr: Translator,
) {
  const product = productOf(w, tr);
  const parts = [
    tr.t('alert.noFree.body', {
      product,
      allocatable: w.allocatable,
      duration: duration(w.forMs),
    }),
  ];
  if (w.pending > 0) parts.push(tr.t('alert.noFree.pending', { count: w.pending }));
  return {
    title: tr.t('alert.noFree.title', { context, product }),
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
  const product = productOf(w, tr);
  return {
    title: tr.t('alert.freeBack.title', { context, product }),
    body: tr.t('alert.freeBack.body', { product, count: free, duration: duration(w.afterMs) }),
  };
}
