/**
 * The words of the DCGM telemetry alerts (`telemetry.alert.*`, `xid.*`) in one language, from their
 * facts. Pure; main makes the English ones with it (the CLI prints those). Node names, GPU models and
 * UUIDs are kept as they are.
 */
import type { AlertWords, GpuRef } from '../alerts.ts';
import { xidKey } from '../telemetry.ts';
import type { Translator } from './translator.ts';

type Words<K> = Extract<AlertWords, { kind: K }>;

/** "GPU 0 (NVIDIA A100-SXM4-80GB, GPU-5c1f…)". */
export function gpuName(g: GpuRef, tr: Translator): string {
  const about = [g.model, g.uuid].filter((x): x is string => x !== null && x !== '');
  return about.length === 0
    ? tr.t('telemetry.alert.gpuName', { index: g.index })
    : tr.t('telemetry.alert.gpuNameAbout', { index: g.index, about: about.join(', ') });
}

/** "XID 79: GPU has fallen off the bus (…)", or "XID 12345" for one the catalogs do not explain. */
export function xidText(xid: number, tr: Translator): string {
  const key = xidKey(xid);
  return key === null ? tr.t('xid.code', { xid }) : tr.t('xid.withMeaning', { xid, meaning: tr.t(key) });
}

export function xidWords(context: string, node: string, w: Words<'gpu-xid'>, tr: Translator) {
  const codes = [...new Set(w.hits.map((h) => tr.t('xid.code', { xid: h.xid })))];
  return {
    title: tr.t('telemetry.alert.xidTitle', {
      context,
      node,
      codes: codes.join(tr.t('common.listSeparator')),
    }),
    body: tr.t('telemetry.alert.xidBody', {
      node,
      hits: w.hits
        .map((h) => tr.t('telemetry.alert.xidHit', { gpu: gpuName(h.gpu, tr), xid: xidText(h.xid, tr) }))
        .join(tr.t('alert.reasonSeparator')),
    }),
  };
}

export function goneWords(
  context: string,
  node: string,
  w: Words<'gpu-gone'>,
  before: number,
  after: number,
  tr: Translator,
) {
  const count = w.gone.length;
  const gpus = w.gone.map((g) => gpuName(g, tr)).join(tr.t('common.listSeparator'));
  return {
    title: tr.t('telemetry.alert.goneTitle', { context, node, count }),
    body: tr.t('telemetry.alert.goneBody', { gpus, node, before, after, count }),
  };
}

export function hotWords(
  context: string,
  node: string,
  w: Words<'gpu-hot'>,
  duration: (ms: number) => string,
  tr: Translator,
) {
  const lines = w.hot
    .map((h) => tr.t('telemetry.alert.hotLine', { gpu: gpuName(h.gpu, tr), temp: h.temp }))
    .join(tr.t('alert.reasonSeparator'));
  return {
    title: tr.t('telemetry.alert.hotTitle', { context, node, count: w.hot.length }),
    body: tr.t('telemetry.alert.hotBody', { lines, threshold: w.thresholdC, duration: duration(w.forMs) }),
  };
}
