/**
 * Kubelet status reports for the flapping rows: a real kubelet writes its Node's .status when something
 * changed, or when nothing did for nodeStatusReportFrequency (KubeletConfiguration default 5m; the
 * heartbeats proper go to the node's Lease in kube-node-lease every 10 s). Kubernetes docs: "Nodes —
 * Node heartbeats" and the kubelet-config.k8s.io/v1beta1 reference (nodeStatusReportFrequency). Each such
 * report is a MODIFIED event carrying the whole Node to every node watcher, conditions'
 * lastHeartbeatTime moved and nothing else.
 */
import type { RemoteSim } from './sim-remote.ts';

const TICK_MS = 100;

/**
 * Sends every node's status report once per `everyMs`, spread evenly over the interval: every 100 ms one
 * batch (through the sim's `reportNodeStatus` control) of the next names due by the time elapsed, so a
 * tick that fires late or waits for a busy sim is caught up by the next one and the count of reports
 * follows the clock. Stopping sends what is due, waits for it and returns how many reports were sent
 * and how many ticks found the previous batch still in flight (the sim not keeping up in real time).
 */
export async function startKubeletReports(
  sim: RemoteSim,
  everyMs: number,
): Promise<() => Promise<{ reports: number; late: number; seconds: number }>> {
  const names = (await sim.control('listNodeNames')) as string[];
  const started = Date.now();
  let sent = 0;
  let late = 0;
  let inFlight = false;
  let busy: Promise<unknown> = Promise.resolve();
  const sendDue = () => {
    const due = Math.floor(((Date.now() - started) * names.length) / everyMs);
    const batch: string[] = [];
    for (; sent < due; sent++) batch.push(names[sent % names.length] as string);
    if (batch.length === 0) return;
    busy = busy.then(async () => {
      inFlight = true;
      await sim.control('reportNodeStatus', batch);
      inFlight = false;
    });
  };
  const timer = setInterval(() => {
    if (inFlight) late++;
    sendDue();
  }, TICK_MS);
  return async () => {
    clearInterval(timer);
    const seconds = (Date.now() - started) / 1000;
    sendDue();
    await busy;
    return { reports: sent, late, seconds };
  };
}
