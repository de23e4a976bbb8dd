/** `gpu-fleet describe NODE` through the CLI harness against the sim (homelab). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOnce } from '../../../test/helpers/cli-harness.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
});
afterAll(async () => {
  await sc?.cleanup();
});

const run = (...args: string[]) => runCliOnce(['describe', ...args, '--kubeconfig', sc.kubeconfigPath]);

describe('gpu-fleet describe', () => {
  it("prints the Ready condition's reason and message, the node's events and its GPU pods", async () => {
    const r = await run('omen2');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Ready: +False — NotReady \(container runtime network not ready\)$/m);
    expect(r.stdout).toMatch(
      /^ {2}Ready +False +yes .* KubeletNotReady +container runtime network not ready: NetworkReady=false/m,
    );
    expect(r.stdout).toMatch(/^ {2}Warning +ContainerGCFailed +\S+ \(x57\) +kubelet +rpc error/m);
    expect(r.stdout).toMatch(/^ {2}ml +llama-serve-7c9d5 +Running +1$/m);
    expect(r.stdout).toMatch(/^ {2}ml +whisper-batch-x2k4q +Pending +1$/m);
    expect(r.stdout).not.toContain('dcgm-exporter');
  });

  it('names a node whose kubelet stopped posting status, and its NodeNotReady event', async () => {
    const r = await run('omen');
    expect(r.stdout).toMatch(/^Ready: +Unknown — kubelet stopped posting node status$/m);
    expect(r.stdout).toMatch(/NodeStatusUnknown +Kubelet stopped posting node status\./);
    expect(r.stdout).toMatch(
      /^ {2}Normal +NodeNotReady +3h +node-controller +Node omen status is now: NodeNotReady$/m,
    );
    expect(r.stdout).toMatch(/^ {2}Warning +Rebooted /m);
  });

  it('-o json carries the contract fields', async () => {
    const r = await run('nuc1', '-o', 'json');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(d.name).toBe('nuc1');
    expect(d.conditions).toContainEqual(
      expect.objectContaining({
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        since: expect.any(String),
      }),
    );
    expect(d.taints).toContainEqual({
      key: 'node.kubernetes.io/unreachable',
      value: null,
      effect: 'NoExecute',
    });
    expect(d.gpu).toMatchObject({
      name: 'nuc1',
      product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED',
      count: 1,
    });
    expect(d.events).toEqual([
      expect.objectContaining({ type: 'Normal', reason: 'NodeNotReady', count: 1, last: expect.any(String) }),
    ]);
    expect(d.pods).toEqual([{ namespace: 'ml', name: 'jupyter-gpu-0', phase: 'Running', gpus: 1 }]);
    expect(d.gpuFacts).toMatchObject({ driver: '550.127.05', cuda: '12.4', family: 'ada-lovelace' });
  });

  it('an unknown node is one sentence and exit 1', async () => {
    const r = await run('no-such-node');
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: node "no-such-node" not found in context "sim-admin"\n',
    });
  });

  it.each([
    [[], 'error: describe needs a node name: gpu-fleet describe NODE\n'],
    [['a', 'b'], 'error: describe takes one node name\n'],
    [['Bad_Name\u001b[2J'], 'error: "Bad_Name" is not a valid node name\n'],
    [
      ['omen', '-o', 'wide'],
      'error: unable to match a printer suitable for the output format "wide", allowed formats are: table,json,yaml\n',
    ],
  ])('refuses %j with one sentence', async (args, stderr) => {
    const r = await run(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(stderr);
  });

  it('a read-only user still gets the node; what it may not read is named', async () => {
    const r = await run('omen', '--context', 'sim-readonly');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Ready: +Unknown — kubelet stopped posting node status$/m);
    expect(r.stdout).toContain('Not shown: events: forbidden');
    expect(r.stderr).toBe('warning: events: forbidden\n');
  });
});

describe('gpu-fleet scan -o wide', () => {
  it('has a REASON column saying why each GPU node is down', async () => {
    const r = await runCliOnce(['scan', '-o', 'wide', '--kubeconfig', sc.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAME +READY .* REASON +SINCE/m);
    expect(r.stdout).toMatch(/^omen +Unknown .* kubelet stopped posting node status +\d{4}-/m);
    expect(r.stdout).toMatch(/^omen2 +NotReady .* NotReady \(container runtime network not ready\) +\d{4}-/m);
  });
});
