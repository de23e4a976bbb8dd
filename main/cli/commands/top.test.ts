/** `gpu-fleet top` and `describe`'s telemetry through the CLI harness against the sim's home lab. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOnce } from '../../../test/helpers/cli-harness.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
  sc.sim.control.setGpuUtilization('omen2', 0, 42);
  sc.sim.control.setGpuTemperature('omen2', 0, 67);
  sc.sim.control.setGpuXid('omen2', 0, 48);
});
afterAll(async () => {
  await sc?.cleanup();
});

const cli = (...args: string[]) => runCliOnce([...args, '--kubeconfig', sc.kubeconfigPath]);

describe('gpu-fleet top', () => {
  it('prints one row per GPU of every GPU node, and why a node has no reading', async () => {
    const r = await cli('top');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NODE +GPU +MODEL +UTIL +TEMP +MEMORY +XID +NOTE$/m);
    // omen2 has no GPU labels: its row says MODEL is the exporter's word.
    expect(r.stdout).toMatch(
      /^omen2 +0 +NVIDIA GeForce RTX 4070 SUPER +42% +67C +\d+\/12282MiB +48 +no GPU labels; model from telemetry$/m,
    );
    // Why there is no reading goes under NOTE; MODEL says no model, as the other empty cells do.
    expect(r.stdout).toMatch(
      /^nuc1 +- +- +- +- +- +- +the exporter pod has no reachable pod IP \(address not allowed\)$/m,
    );
  });

  it('-o json, and a read-only user: "forbidden: pods/proxy" on every row, exit 0', async () => {
    const r = await cli('top', '-o', 'json', '--context', 'sim-readonly');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { nodes: { node: string; telemetry: { message?: string } }[] };
    expect(doc.nodes.map((n) => n.node).sort()).toEqual(['nuc1', 'nuc2', 'omen', 'omen2']);
    expect(new Set(doc.nodes.map((n) => n.telemetry.message))).toEqual(new Set(['forbidden: pods/proxy']));
  });
});

describe('gpu-fleet scan -o wide', () => {
  it("shows omen2's model from its telemetry, marked as such; the plain table reads no telemetry", async () => {
    const wide = await cli('scan', '-o', 'wide');
    expect(wide.code).toBe(0);
    expect(wide.stdout).toMatch(/^omen2 +NotReady +RTX 4070 SUPER \(from telemetry\) +0 /m);
    expect(wide.stdout).toMatch(/^nuc2 +Unknown +<unlabeled> +0 /m);
    sc.sim.control.resetRequestLog();
    const plain = await cli('scan');
    expect(plain.stdout).toMatch(/^omen2 +NotReady +<unlabeled> +0 /m);
    expect(sc.sim.control.requestLog().some((l) => l.path.includes('/proxy/'))).toBe(false);
  });

  it('a read-only user without pods/proxy gets <unlabeled> and exit 0, no error', async () => {
    const r = await cli('scan', '-o', 'wide', '--context', 'sim-readonly');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^omen2 +NotReady +<unlabeled> +0 /m);
    expect(r.stderr).toBe('');
  });
});

describe('gpu-fleet describe telemetry', () => {
  it('-o json has gpus[] with the readings, and the table a GPU Telemetry section', async () => {
    const j = await cli('describe', 'omen2', '-o', 'json');
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout) as { gpus: Record<string, unknown>[] };
    expect(doc.gpus).toHaveLength(1);
    expect(doc.gpus[0]).toMatchObject({
      index: 0,
      utilPercent: 42,
      temperatureC: 67,
      xid: 48,
      memoryTotalMiB: 12_282,
    });
    expect(String(doc.gpus[0]?.xidMeaning)).toMatch(/^Double Bit ECC Error/);
    const t = await cli('describe', 'omen2');
    expect(t.stdout).toMatch(/^GPU Telemetry:\n {2}GPU +Model +Util +Temp/m);
    expect(t.stdout).toMatch(
      /^ {2}0 +NVIDIA GeForce RTX 4070 SUPER +42% +67 C .* 48 \(Double Bit ECC Error/m,
    );
  });

  it('a read-only user sees forbidden: pods/proxy in the detail, the rest still prints', async () => {
    const r = await cli('describe', 'omen2', '--context', 'sim-readonly', '-o', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { gpus: unknown[]; telemetry: unknown; conditions: unknown[] };
    expect(doc.gpus).toEqual([]);
    expect(doc.telemetry).toMatchObject({ state: 'unavailable', message: 'forbidden: pods/proxy' });
    expect(doc.conditions.length).toBeGreaterThan(0);
  });
});
