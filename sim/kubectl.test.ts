// kubectl (if installed) can list nodes, configmaps and a CRD's resources by short name from the simulator.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBECTL, kubectlIn } from '../test/kubectl.ts';
import { type RunningSim, startSim } from './index.ts';

if (!KUBECTL) console.warn('kubectl not found in /usr/bin or /usr/local/bin: skipping the kubectl tests');

describe.skipIf(!KUBECTL)('kubectl against the simulator', () => {
  let sim: RunningSim;
  let dir: string;
  const kubectl = kubectlIn(() => dir);

  beforeAll(async () => {
    sim = await startSim();
    dir = await mkdtemp(join(tmpdir(), 'sim-kubectl-'));
    await sim.writeKubeconfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gets nodes', async () => {
    const out = await kubectl('get', 'nodes');
    expect(out).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/);
    expect(out).toMatch(/nuc1\s+NotReady/);
    expect(out.trim().split('\n')).toHaveLength(9);
  });

  it('gets configmaps and a CRD resource by its short name', async () => {
    await kubectl('get', 'configmaps', '-A');
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gpuinventories.gpufleet.example.dev' },
      spec: {
        group: 'gpufleet.example.dev',
        scope: 'Cluster',
        names: {
          kind: 'GpuInventory',
          listKind: 'GpuInventoryList',
          plural: 'gpuinventories',
          singular: 'gpuinventory',
          shortNames: ['gpuinv'],
        },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            additionalPrinterColumns: [{ name: 'GPUs', type: 'integer', jsonPath: '.status.total_gpus' }],
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    await writeFile(join(dir, 'crd.json'), JSON.stringify(crd));
    await writeFile(
      join(dir, 'cr.json'),
      JSON.stringify({
        apiVersion: 'gpufleet.example.dev/v1',
        kind: 'GpuInventory',
        metadata: { name: 'cluster' },
        spec: {},
      }),
    );
    await kubectl('create', '--validate=false', '-f', join(dir, 'crd.json'));
    await kubectl('create', '--validate=false', '-f', join(dir, 'cr.json'));
    const out = await kubectl('get', 'gpuinv');
    expect(out).toMatch(/^NAME\s+GPUS/);
    expect(out).toMatch(/^cluster\b/m);
  });
});
