/** Words for the node detail panel: relative times, condition lines, GPU facts as label/value pairs. */
import type { Translator } from '../../common/i18n/translator.ts';
import type { NodeDetail } from '../../common/node-detail.ts';
import {
  coarseMinutes,
  formatAge,
  formatMemory,
  lastSeenText,
  productName,
  telemetryModelText,
} from './format.ts';

export interface FactRow {
  label: string;
  value: string | number | null;
  warn?: boolean;
}

/** "3 h ago", "just now", or null when the time is missing or unreadable. */
export function ago(iso: string | null, now: number, tr: Translator): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const ms = now - t;
  const age = formatAge(ms, tr);
  return !Number.isFinite(ms) || ms < 60_000 ? age : tr.t('duration.ago', { age });
}

/** Seconds as the same coarse age the rest of the window uses ("41 min"). */
export function secondsAge(seconds: number | null, tr: Translator): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const min = Math.floor(seconds / 60);
  if (min < 1) return tr.t('duration.underAMinute');
  return coarseMinutes(min, tr);
}

export function systemFacts(d: NodeDetail, tr: Translator): FactRow[] {
  const s = d.system;
  return [
    { label: tr.t('detail.node.kubelet'), value: s.kubeletVersion },
    { label: tr.t('detail.node.osImage'), value: s.osImage },
    { label: tr.t('detail.node.kernel'), value: s.kernelVersion },
    { label: tr.t('detail.node.runtime'), value: s.containerRuntime },
    { label: tr.t('detail.node.architecture'), value: s.architecture },
  ];
}

/** For a node without a product label: the model its DCGM exporter names (marked so), else "<unlabeled>". */
function productFromTelemetry(d: NodeDetail, tr: Translator): string {
  const model = d.telemetry?.state === 'ok' ? d.telemetry.gpus.find((g) => g.model !== null)?.model : null;
  return model ? telemetryModelText(model, tr) : tr.t('node.unlabeled');
}

export function gpuFacts(d: NodeDetail, tr: Translator): FactRow[] {
  const t = tr.t;
  const g = d.gpu;
  const f = d.gpuFacts;
  const rows: FactRow[] = [];
  if (g) {
    rows.push(
      {
        label: t('detail.gpu.product'),
        value: g.product !== null ? productName(g.product, tr) : productFromTelemetry(d, tr),
      },
      { label: t('detail.gpu.gpus'), value: tr.number(g.count) },
      { label: t('detail.gpu.memory'), value: g.memory === null ? null : formatMemory(g.memory, tr) },
    );
  }
  rows.push(
    { label: t('detail.gpu.family'), value: f.family },
    { label: t('detail.gpu.driver'), value: f.driver },
    { label: t('detail.gpu.cuda'), value: f.cuda },
  );
  if (g?.mig || f.migConfig || f.migState) {
    const profiles = g?.mig?.profiles.map((p) => `${p.profile}×${p.count}`).join(', ') ?? '';
    rows.push(
      { label: t('detail.gpu.migStrategy'), value: g?.mig?.strategy ?? null },
      { label: t('detail.gpu.migProfiles'), value: profiles },
      { label: t('detail.gpu.migConfig'), value: f.migConfig },
      { label: t('detail.gpu.migState'), value: f.migState, warn: f.migState === 'failed' },
    );
  }
  if (g?.sharing) {
    const r = g.sharing.replicas;
    const strategy = g.sharing.strategy ?? t('node.shared');
    rows.push({ label: t('detail.gpu.sharing'), value: `${strategy}${r ? ` ×${r}` : ''}` });
  }
  if (g) rows.push({ label: t('detail.gpu.workload'), value: g.workload });
  const seen = g ? lastSeenText(g, tr) : null;
  if (seen)
    rows.push({
      label: t('detail.gpu.labels'),
      value: t('detail.gpu.labelsGone', { lastSeen: seen }),
      warn: true,
    });
  const gfd = secondsAge(f.gfdAgeSeconds, tr);
  rows.push({
    label: t('detail.gpu.gfdLabels'),
    value: gfd === null ? null : t('detail.gpu.gfdWritten', { age: gfd }),
  });
  return rows;
}
