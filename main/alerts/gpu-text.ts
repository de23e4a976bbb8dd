/**
 * The words of the DCGM telemetry alerts, from the message catalogs (`telemetry.alert.*`) in English as
 * main/alerts/text.ts speaks; a notifier that localises passes its own translator.
 */
import { type Translator, translator } from '../../common/i18n/translator.ts';
import { duration } from './text.ts';

export interface GpuRef {
  index: number;
  uuid: string | null;
  model: string | null;
}

const EN = translator('en');

/** "GPU 0 (NVIDIA A100-SXM4-80GB, GPU-5c1f…)". */
export function gpuName(g: GpuRef, tr: Translator = EN): string {
  const about = [g.model, g.uuid].filter((x): x is string => x !== null && x !== '');
  return about.length === 0
    ? tr.t('telemetry.alert.gpuName', { index: g.index })
    : tr.t('telemetry.alert.gpuNameAbout', { index: g.index, about: about.join(', ') });
}

export function xidAlertText(
  context: string,
  node: string,
  hits: { gpu: GpuRef; xid: number; text: string }[],
  tr: Translator = EN,
) {
  const codes = [...new Set(hits.map((h) => tr.t('xid.code', { xid: h.xid })))];
  const sep = tr.t('common.listSeparator');
  return {
    title: tr.t('telemetry.alert.xidTitle', { context, node, codes: codes.join(sep) }),
    body: tr.t('telemetry.alert.xidBody', {
      node,
      hits: hits
        .map((h) => tr.t('telemetry.alert.xidHit', { gpu: gpuName(h.gpu, tr), xid: h.text }))
        .join('; '),
    }),
  };
}

export function goneAlertText(
  context: string,
  node: string,
  gone: GpuRef[],
  before: number,
  after: number,
  tr: Translator = EN,
) {
  const count = gone.length;
  const gpus = gone.map((g) => gpuName(g, tr)).join(tr.t('common.listSeparator'));
  return {
    title: tr.t('telemetry.alert.goneTitle', { context, node, count }),
    body: tr.t('telemetry.alert.goneBody', { gpus, node, before, after, count }),
  };
}

export function hotAlertText(
  context: string,
  node: string,
  hot: { gpu: GpuRef; temp: number }[],
  thresholdC: number,
  forMs: number,
  tr: Translator = EN,
) {
  const lines = hot
    .map((h) => tr.t('telemetry.alert.hotLine', { gpu: gpuName(h.gpu, tr), temp: h.temp }))
    .join('; ');
  return {
    title: tr.t('telemetry.alert.hotTitle', { context, node, count: hot.length }),
    body: tr.t('telemetry.alert.hotBody', { lines, threshold: thresholdC, duration: duration(forMs) }),
  };
}
