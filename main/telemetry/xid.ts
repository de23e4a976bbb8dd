/**
 * What the common XID codes mean, in the words of NVIDIA's XID catalogue (docs.nvidia.com/deploy/xid-errors),
 * and which of them are known-benign for the GPU: caused by the application (a bad kernel, an illegal
 * address) or a successful recovery, so they do not raise an alert (the node detail still shows them).
 */

const MEANINGS: ReadonlyMap<number, string> = new Map([
  [13, 'Graphics Engine Exception (usually an application error)'],
  [31, 'GPU memory page fault (usually an application accessing an illegal address)'],
  [43, 'GPU stopped processing (the application hit a software-induced fault)'],
  [45, 'Preemptive cleanup after previous errors (the application was stopped)'],
  [48, 'Double Bit ECC Error (uncorrectable memory error: drain the node, reset the GPU)'],
  [61, 'Internal micro-controller breakpoint/warning'],
  [62, 'Internal micro-controller halt'],
  [63, 'ECC page retirement or row remapping recording event (a page was retired or a row remapped)'],
  [64, 'ECC page retirement or row remapper recording failure (reset the GPU; replace it if it repeats)'],
  [74, 'NVLink Error (check the NVLink connections; reset the GPU)'],
  [79, 'GPU has fallen off the bus (the GPU is no longer reachable: reboot the node; check power and PCIe)'],
  [92, 'High single-bit ECC error rate'],
  [94, 'Contained ECC error (the affected application must restart; reset the GPU when convenient)'],
  [95, 'Uncontained ECC error (every application on the GPU is affected: reset the GPU)'],
  [119, 'GSP RPC timeout (the GPU System Processor stopped answering: reset the GPU)'],
  [120, 'GSP error'],
]);

/** Application-side or recovered: shown, never alerted. */
const BENIGN: ReadonlySet<number> = new Set([13, 31, 43, 45, 63]);

export function xidMeaning(xid: number): string | null {
  return MEANINGS.get(xid) ?? null;
}

export function isBenignXid(xid: number): boolean {
  return BENIGN.has(xid);
}

/** "XID 79: GPU has fallen off the bus (…)", or "XID 12345" for one we have no words for. */
export function xidText(xid: number): string {
  const m = xidMeaning(xid);
  return m === null ? `XID ${xid}` : `XID ${xid}: ${m}`;
}
