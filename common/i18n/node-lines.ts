/**
 * One message per node (an alert's line for each node it names), with i18next asked once per distinct
 * set of the other values rather than once per node: a call costs tens of µs, and an alert on a large
 * cluster names hundreds of nodes in one task (500 withdrawn-GPU lines took 12–16 ms of the engine's
 * first policy run on 5,000 nodes). The words are the ones `tr.t(key, { ...vars, node })` gives: the
 * message is made with a stand-in for the node, which is put in afterwards, as i18next would put it
 * (verbatim: escapeValue is off and values are never interpolated again, translator.ts). The stand-in
 * is a NUL, which no catalog message holds (node-lines.test.ts checks); a value holding one is worded alone.
 */
import type { MessageKey, MessageVars } from './catalog-types.ts';
import type { Translator } from './translator.ts';

export const NODE_STAND_IN = '\u0000';

export function nodeLines<T extends { node: string }>(
  tr: Translator,
  key: MessageKey,
  items: readonly T[],
  /** The message's other values for an item; items with equal values share one i18next call. */
  vars: (item: T) => MessageVars,
): string[] {
  const made = new Map<string, string[]>();
  return items.map((item) => {
    const v = vars(item);
    // A value that holds the stand-in itself would be cut where it is: worded alone.
    if (Object.values(v).some((x) => typeof x === 'string' && x.includes(NODE_STAND_IN)))
      return tr.t(key, { ...v, node: item.node });
    const memo = JSON.stringify(v);
    let parts = made.get(memo);
    if (parts === undefined) {
      parts = tr.t(key, { ...v, node: NODE_STAND_IN }).split(NODE_STAND_IN);
      made.set(memo, parts);
    }
    return parts.join(item.node);
  });
}
