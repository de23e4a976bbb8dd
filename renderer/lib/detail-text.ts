/** Words for the node detail panel: relative times, condition lines, GPU facts as label/value pairs. */
import type { NodeDetail } from '../../common/node-detail.ts';
import { ageSince, formatMemory, lastSeenText, shortProduct } from './format.ts';

export interface FactRow {
  label: string;
  value: string | number | null;
  warn?: boolean;
}

/** "3 h ago", "just now", or null when the time is missing or unreadable. */
export function ago(iso: string | null, now: number): string | null {
  const age = ageSince(iso, now);
  if (age === null) return null;
  return age === 'just now' ? age : `${age} ago`;
}

/** Seconds as the same coarse age the rest of the window uses ("41 min"). */
export function secondsAge(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const min = Math.floor(seconds / 60);
  if (min < 1) return 'under a minute';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} d`;
}

export function systemFacts(d: NodeDetail): FactRow[] {
  const s = d.system;
  return [
    { label: 'Kubelet', value: s.kubeletVersion },
    { label: 'OS image', value: s.osImage },
    { label: 'Kernel', value: s.kernelVersion },
    { label: 'Runtime', value: s.containerRuntime },
    { label: 'Architecture', value: s.architecture },
  ];
}

export function gpuFacts(d: NodeDetail): FactRow[] {
  const g = d.gpu;
  const f = d.gpuFacts;
  const rows: FactRow[] = [];
  if (g) {
    rows.push(
      { label: 'Product', value: g.product === null ? '<unlabeled>' : shortProduct(g.product) },
      { label: 'GPUs', value: g.count },
      { label: 'Memory', value: g.memory === null ? null : formatMemory(g.memory) },
    );
  }
  rows.push(
    { label: 'Family', value: f.family },
    { label: 'Driver', value: f.driver },
    { label: 'CUDA', value: f.cuda },
  );
  if (g?.mig || f.migConfig || f.migState) {
    const profiles = g?.mig?.profiles.map((p) => `${p.profile}×${p.count}`).join(', ') ?? '';
    rows.push(
      { label: 'MIG strategy', value: g?.mig?.strategy ?? null },
      { label: 'MIG profiles', value: profiles },
      { label: 'MIG config', value: f.migConfig },
      { label: 'MIG state', value: f.migState, warn: f.migState === 'failed' },
    );
  }
  if (g?.sharing) {
    const r = g.sharing.replicas;
    rows.push({ label: 'Sharing', value: `${g.sharing.strategy ?? 'shared'}${r ? ` ×${r}` : ''}` });
  }
  if (g) rows.push({ label: 'Workload', value: g.workload });
  const seen = g ? lastSeenText(g) : null;
  if (seen) rows.push({ label: 'Labels', value: `gone; ${seen}`, warn: true });
  const gfd = secondsAge(f.gfdAgeSeconds);
  rows.push({ label: 'GFD labels', value: gfd === null ? null : `written ${gfd} ago` });
  return rows;
}
