// Scenario seeding: homelab, large:N (and large:N,pods=P,gpu=G), flapping (a timer toggling GPU nodes), empty.
import type { Core } from '../core.ts';
import { nowIso, obj } from '../json.ts';
import { seedRbac } from '../rbac.ts';
import type { KObj, ResourceDef } from '../types.ts';
import { HOMELAB_NAMESPACES, seedExtras } from './extras.ts';
import { homelabNodes } from './homelab.ts';
import { largeNodes } from './large.ts';
import { LARGE_POD_NAMESPACES, parseLarge, seedLargePods } from './large-pods.ts';
import { readyCondition, taintsFor } from './node.ts';
import { SMALL_LAB_NAMESPACES, seedSmallLab, smallLabNodes, startSmallLabFlap } from './smalllab.ts';

export const NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

function namespace(name: string): KObj {
  return {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

export function nodesFor(scenario: string): KObj[] {
  if (scenario === 'empty') return [];
  const large = parseLarge(scenario);
  if (large) return largeNodes(large.nodes);
  if (scenario === 'homelab' || scenario.startsWith('flapping')) return homelabNodes();
  if (scenario === 'smalllab' || scenario.startsWith('smalllab:')) return smallLabNodes();
  throw new Error(`unknown scenario ${scenario} (homelab, smalllab, large:N, flapping, empty)`);
}

export function seed(core: Core, scenario: string): void {
  const nodes = nodesFor(scenario);
  const nsDef = core.registry.find('', 'v1', 'namespaces') as ResourceDef;
  const nodeDef = core.registry.find('', 'v1', 'nodes') as ResourceDef;
  const lab = scenario === 'homelab' || scenario.startsWith('flapping');
  const small = scenario.startsWith('smalllab');
  const large = parseLarge(scenario);
  const withPods = large !== null && large.pods > 0;
  const extra = lab
    ? HOMELAB_NAMESPACES
    : small
      ? SMALL_LAB_NAMESPACES
      : withPods
        ? LARGE_POD_NAMESPACES
        : [];
  const namespaces = [...NAMESPACES, ...extra];
  for (const n of namespaces) core.write(nsDef, namespace(n), undefined);
  for (const n of nodes) core.write(nodeDef, n, undefined);
  seedRbac(core);
  seedExtras(core, scenario, namespaces);
  if (small) seedSmallLab(core);
  if (large && withPods) seedLargePods(core, large, nodes);
  core.store.compact();
}

const GPU_LABELS = ['nvidia.com/gpu.product', 'nvidia.com/gpu.count', 'nvidia.com/gpu.memory'];

/** flapping[:MS]: every MS (default 4000) one GPU node goes NotReady (losing its GPU labels) or comes back. */
export function startFlapping(core: Core, scenario: string): () => void {
  if (scenario.startsWith('smalllab')) return startSmallLabFlap(core, scenario);
  if (!scenario.startsWith('flapping')) return () => {};
  const ms = Number(scenario.split(':')[1] ?? 4000) || 4000;
  const nodeDef = core.registry.find('', 'v1', 'nodes') as ResourceDef;
  const names = ['nuc1', 'nuc2', 'omen', 'omen2'];
  const remembered = new Map<string, Record<string, string>>();
  const setNode = (name: string, ready: boolean) => {
    const prev = core.get(nodeDef, '', name);
    if (!prev) return;
    const labels = { ...(obj(prev.metadata.labels) as Record<string, string>) };
    if (ready)
      Object.assign(
        labels,
        remembered.get(name) ?? {
          'nvidia.com/gpu.product': 'NVIDIA-GeForce-RTX-4070-SUPER',
          'nvidia.com/gpu.count': '1',
          'nvidia.com/gpu.memory': '12282',
        },
      );
    else {
      remembered.set(
        name,
        Object.fromEntries(GPU_LABELS.filter((k) => labels[k]).map((k) => [k, labels[k] as string])),
      );
      for (const k of GPU_LABELS) delete labels[k];
    }
    const status = obj(prev.status);
    const conds = (Array.isArray(status.conditions) ? status.conditions : []).filter(
      (c) => obj(c).type !== 'Ready',
    );
    const next: KObj = {
      ...prev,
      metadata: { ...prev.metadata, labels },
      spec: { ...obj(prev.spec), taints: taintsFor(ready ? 'True' : 'Unknown', false) },
      status: { ...status, conditions: [...conds, readyCondition(ready ? 'True' : 'Unknown', nowIso())] },
    };
    core.write(nodeDef, next, prev);
  };
  for (const n of names) setNode(n, true);
  let tick = 0;
  const timer = setInterval(() => {
    const name = names[Math.floor(tick / 2) % names.length] as string;
    setNode(name, tick % 2 === 1);
    tick++;
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
