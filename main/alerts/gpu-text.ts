/** The words of the DCGM telemetry alerts (main/alerts/text.ts style): XID, a GPU gone, a hot GPU. */
import { duration, list } from './text.ts';

export interface GpuRef {
  index: number;
  uuid: string | null;
  model: string | null;
}

/** "GPU 0 (NVIDIA A100-SXM4-80GB, GPU-5c1f…)". */
export function gpuName(g: GpuRef): string {
  const about = [g.model, g.uuid].filter((x): x is string => x !== null && x !== '');
  return about.length === 0 ? `GPU ${g.index}` : `GPU ${g.index} (${about.join(', ')})`;
}

export function xidAlertText(context: string, node: string, hits: { gpu: GpuRef; text: string }[]) {
  const codes = [...new Set(hits.map((h) => h.text.split(':')[0] as string))];
  return {
    title: `${context}: ${list(codes)} on ${node}`,
    body: `${node} ${hits.map((h) => `${gpuName(h.gpu)}: ${h.text}`).join('; ')}.`,
  };
}

export function goneAlertText(context: string, node: string, gone: GpuRef[], before: number, after: number) {
  const what = gone.length === 1 ? 'a GPU' : `${gone.length} GPUs`;
  return {
    title: `${context}: ${what} gone on ${node}`,
    body: `${list(gone.map(gpuName))} no longer ${gone.length === 1 ? 'appears' : 'appear'} in the DCGM exporter of ${node} (GPUs ${before} → ${after}).`,
  };
}

export function hotAlertText(
  context: string,
  node: string,
  hot: { gpu: GpuRef; temp: number }[],
  thresholdC: number,
  forMs: number,
) {
  return {
    title: `${context}: GPU ${hot.length === 1 ? 'too hot' : 'GPUs too hot'} on ${node}`,
    body: `${hot.map((h) => `${gpuName(h.gpu)} at ${h.temp} °C`).join('; ')}: above ${thresholdC} °C for ${duration(forMs)}.`,
  };
}
