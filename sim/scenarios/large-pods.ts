// large:N,pods=P,gpu=G — the large:N nodes with P running pods, G of them requesting one GPU slot of the
// node they are bound to (whole GPU, MIG slice, shared replica, passthrough device) until its allocatable
// is used up; the GPU pods left over are Pending with the scheduler's reason. Pods are made cheaply: one
// defaulted template per kind (as pods.ts's admission would store it), whose spec parts every pod shares
// (the store never mutates a stored object's nested parts), and a metadata, nodeName and IPs of its own.
// `churnPods` replaces pods one by one (delete, then create on the same node with the same request), so
// the GPU slots stay as full as they were and the watch sees DELETED and ADDED.
import { obj } from '../json.ts';
import type { Json, JsonObject, KObj } from '../types.ts';

export interface LargeScenario {
  nodes: number;
  pods: number;
  gpuPods: number;
}

/** `large:N` or `large:N,pods=P,gpu=G`; null when it is not a large scenario. */
export function parseLarge(scenario: string): LargeScenario | null {
  if (!scenario.startsWith('large:')) return null;
  const [n, ...opts] = scenario.slice(6).split(',');
  const nodes = Number(n);
  const o = Object.fromEntries(opts.map((x) => x.split('=') as [string, string]));
  const pods = Number(o.pods ?? 0);
  const gpuPods = Number(o.gpu ?? 0);
  const whole = (x: number) => Number.isInteger(x) && x >= 0;
  if (!whole(nodes) || !whole(pods) || !whole(gpuPods) || gpuPods > pods)
    throw new Error(`invalid scenario ${scenario}: large:N or large:N,pods=P,gpu=G (G ≤ P, whole numbers)`);
  return { nodes, pods, gpuPods };
}

export const LARGE_POD_NAMESPACES = Array.from(
  { length: 20 },
  (_, i) => `team-${String(i).padStart(2, '0')}`,
);

const TOLERATIONS: Json[] = ['not-ready', 'unreachable'].map((k) => ({
  key: `node.kubernetes.io/${k}`,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
}));

function specOf(image: string, resources: JsonObject): JsonObject {
  return {
    volumes: [
      {
        name: 'kube-api-access',
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          ],
          defaultMode: 420,
        },
      },
    ],
    containers: [
      {
        name: 'main',
        image,
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
        resources,
        volumeMounts: [
          {
            name: 'kube-api-access',
            readOnly: true,
            mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
          },
        ],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'default',
    serviceAccount: 'default',
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: TOLERATIONS,
    priority: 0,
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  };
}

const CPU_RESOURCES = {
  requests: { cpu: '250m', memory: '512Mi' },
  limits: { memory: '512Mi' },
};
const CPU_SPEC = specOf('registry.k8s.io/e2e-test-images/agnhost:2.53', CPU_RESOURCES);
const gpuSpecs = new Map<string, JsonObject>();
function gpuSpec(resource: string): JsonObject {
  let s = gpuSpecs.get(resource);
  if (!s) {
    s = specOf('nvcr.io/nvidia/pytorch:24.10-py3', {
      requests: { cpu: '4', memory: '32Gi', [resource]: '1' },
      limits: { memory: '32Gi', [resource]: '1' },
    });
    gpuSpecs.set(resource, s);
  }
  return s;
}

const RUNNING_CONDITIONS: Json[] = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: '2026-11-20T08:00:00Z' }));
const PENDING_MESSAGE =
  '0/5000 nodes are available: 1040 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 3960 Insufficient nvidia.com/gpu. preemption: 0/5000 nodes are available: 5000 No preemption victims found for incoming pod.';

/** Where one pod goes: a node and the GPU resource it asks for (null: no GPU; node null: Pending). */
export interface PodPlace {
  node: string | null;
  resource: string | null;
}

let serial = 0;

/** One pod object, fresh metadata over the shared template of its kind. */
export function largePod(ns: string, name: string, place: PodPlace, index: number): KObj {
  serial++;
  const spec = place.resource === null ? CPU_SPEC : gpuSpec(place.resource);
  const bound = place.node !== null;
  const ip = `10.${128 + ((index >> 16) & 63)}.${(index >> 8) & 255}.${index & 255}`;
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      generateName: `${name.slice(0, name.lastIndexOf('-'))}-`,
      namespace: ns,
      uid: `5f0c${String(serial).padStart(8, '0')}-1d2e-4f3a-9b8c-${String(index).padStart(12, '0')}`,
      creationTimestamp: '2026-11-20T08:00:00Z',
      labels: { app: name.slice(0, name.lastIndexOf('-')), 'pod-template-hash': '7c9f8d6b5d' },
    },
    spec: bound ? { ...spec, nodeName: place.node } : spec,
    status: bound
      ? {
          phase: 'Running',
          conditions: RUNNING_CONDITIONS,
          hostIP: '10.0.0.1',
          podIP: ip,
          podIPs: [{ ip }],
          startTime: '2026-11-20T08:00:00Z',
          qosClass: 'Burstable',
        }
      : {
          phase: 'Pending',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              lastProbeTime: null,
              lastTransitionTime: '2026-11-20T08:00:00Z',
              reason: 'Unschedulable',
              message: PENDING_MESSAGE,
            },
          ],
          qosClass: 'Burstable',
        },
  };
}

const GPU_RESOURCE = /^nvidia\.com\//;

/** The GPU slots of the nodes, one entry per allocatable unit (Ready or not: a pod may stay bound). */
function slotsOf(nodes: readonly KObj[]): PodPlace[] {
  const perNode: PodPlace[][] = [];
  for (const n of nodes) {
    const alloc = obj(obj(n.status).allocatable);
    const mine: PodPlace[] = [];
    for (const [resource, v] of Object.entries(alloc)) {
      if (!GPU_RESOURCE.test(resource)) continue;
      for (let i = 0; i < Number(v); i++) mine.push({ node: String(n.metadata.name), resource });
    }
    if (mine.length > 0) perNode.push(mine);
  }
  // Round-robin over the nodes, so a partial fill leaves free slots spread over the cluster.
  const out: PodPlace[] = [];
  for (let round = 0; perNode.some((m) => round < m.length); round++)
    for (const m of perNode) if (round < m.length) out.push(m[round] as PodPlace);
  return out;
}

/** Where each of the scenario's pods goes, in creation order. */
export function largePlaces(s: LargeScenario, nodes: readonly KObj[]): PodPlace[] {
  const slots = slotsOf(nodes);
  const cpuNodes = nodes.filter(
    (n) => !Object.keys(obj(obj(n.status).allocatable)).some((r) => GPU_RESOURCE.test(r)),
  );
  const out: PodPlace[] = [];
  // Every fifth pod requests a GPU while any are left to place: GPU and other pods are interleaved.
  let gpu = 0;
  for (let i = 0; i < s.pods; i++) {
    const wantsGpu = gpu < s.gpuPods && (i % 5 === 0 || s.pods - i <= s.gpuPods - gpu);
    if (wantsGpu) {
      const slot = slots[gpu];
      out.push(slot ?? { node: null, resource: 'nvidia.com/gpu' });
      gpu++;
    } else {
      const n = cpuNodes.length > 0 ? cpuNodes[i % cpuNodes.length] : nodes[i % Math.max(1, nodes.length)];
      out.push({ node: n ? String(n.metadata.name) : null, resource: null });
    }
  }
  return out;
}

export const largePodName = (i: number, generation = 0) =>
  `${i % 5 === 0 ? 'trainer' : 'web'}-${String(Math.floor(i / 20)).padStart(5, '0')}-${generation > 0 ? `g${generation}x` : ''}${String(i).padStart(6, '0')}`;

export const largePodNamespace = (i: number) =>
  LARGE_POD_NAMESPACES[i % LARGE_POD_NAMESPACES.length] as string;

/** What a seeded large scenario needs to churn its pods: where each goes and its current generation. */
interface Seeded {
  places: PodPlace[];
  generation: number[];
  cursor: number;
}

/** The slice of Core these pods need (core.ts's Core has it). */
export interface LargePodCore {
  readonly store: {
    put(skey: string, key: string, obj: KObj): KObj;
    remove(skey: string, key: string): KObj | undefined;
  };
}

const seeded = new WeakMap<LargePodCore, Seeded>();
const POD_SKEY = '/pods';

/** Stores the scenario's pods straight into the store (the template is already what admission stores). */
export function seedLargePods(core: LargePodCore, s: LargeScenario, nodes: readonly KObj[]): void {
  const places = largePlaces(s, nodes);
  places.forEach((place, i) => {
    const ns = largePodNamespace(i);
    const name = largePodName(i);
    core.store.put(POD_SKEY, `${ns}/${name}`, largePod(ns, name, place, i));
  });
  seeded.set(core, { places, generation: places.map(() => 0), cursor: 0 });
}

/**
 * Replaces `count` pods, the next ones in order: each is deleted and a pod of the same kind, node and
 * request is created under a new name. Returns how many GPU pods were among them.
 */
export function churnLargePods(core: LargePodCore, count: number): number {
  const s = seeded.get(core);
  if (!s || s.places.length === 0) return 0;
  let gpu = 0;
  for (let k = 0; k < count; k++) {
    const i = s.cursor++ % s.places.length;
    const ns = largePodNamespace(i);
    const gen = s.generation[i] ?? 0;
    core.store.remove(POD_SKEY, `${ns}/${largePodName(i, gen)}`);
    s.generation[i] = gen + 1;
    const name = largePodName(i, gen + 1);
    const place = s.places[i] as PodPlace;
    if (place.resource !== null) gpu++;
    core.store.put(POD_SKEY, `${ns}/${name}`, largePod(ns, name, place, i));
  }
  return gpu;
}
