/** The node detail's product fact: the label, else the model telemetry reports (marked so), else <unlabeled>. */
import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import type { NodeDetail } from '../../common/node-detail.ts';
import type { GpuTelemetry } from '../../common/telemetry.ts';
import { homelabDetail } from '../fixtures/node-detail.ts';
import { gpuFacts } from './detail-text.ts';

const gpu = (model: string | null): GpuTelemetry => ({
  index: 0,
  uuid: null,
  model,
  utilPercent: 0,
  temperatureC: 40,
  powerW: null,
  memoryUsedMiB: null,
  memoryTotalMiB: null,
  xid: null,
  xidMeaning: null,
  history: [],
});
const withTelemetry = (name: string, model: string | null): NodeDetail => {
  const d = homelabDetail(name) as NodeDetail;
  return { ...d, telemetry: { state: 'ok', scrapedAt: '2026-12-01T00:00:00Z', gpus: [gpu(model)] } };
};
const product = (d: NodeDetail, lang: 'en' | 'ko' = 'en') => {
  const tr = translator(lang);
  return gpuFacts(d, tr).find((f) => f.label === tr.t('detail.gpu.product'))?.value;
};

describe('gpuFacts: product', () => {
  it.each([
    [
      'omen2 with a telemetry model',
      withTelemetry('omen2', 'NVIDIA GeForce RTX 4070 SUPER'),
      'en',
      'RTX 4070 SUPER (from telemetry)',
    ],
    [
      'the same in Korean',
      withTelemetry('omen2', 'NVIDIA GeForce RTX 4070 SUPER'),
      'ko',
      'RTX 4070 SUPER(텔레메트리 기준)',
    ],
    ['omen2 whose exporter names no model', withTelemetry('omen2', null), 'en', '<unlabeled>'],
    ['omen2 without telemetry', homelabDetail('omen2') as NodeDetail, 'en', '<unlabeled>'],
    [
      'a labelled node keeps its label',
      withTelemetry('nuc1', 'NVIDIA H100'),
      'en',
      'RTX 4070 Laptop GPU (shared)',
    ],
  ] as const)('%s', (_what, d, lang, want) => {
    expect(product(d, lang)).toBe(want);
  });
});
