/**
 * Controllers in the test process against the simulator over real HTTPS, on a shared ManualClock,
 * each behind its own cuttable link and with its own sim user (sim-admin, sim-revocable), so the sim's
 * request log tells their writes apart. Virtual time moves in small steps with a real pause after each,
 * so the sockets' answers arrive between steps; `run()` checks after every step that at most one
 * replica believes it leads.
 */

import { Controller, type ControllerOptions } from '../../main/controller/controller.ts';
import { systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { Logger } from '../../main/log/logger.ts';
import {
  DEFAULT_CONFIGMAP_NAMESPACE,
  DEFAULT_CRD_GROUP,
  installWriteback,
} from '../../main/writeback/index.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';
import { type Link, startLink, throughLink } from './link.ts';

export const LEASE_NAMESPACE = 'default';
const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/gpu-fleet-controller`;

export interface Replica {
  id: string;
  user: string;
  controller: Controller;
  link: Link;
  /** Parsed JSON log lines. */
  logs: { at: string; level: string; msg: string; [k: string]: unknown }[];
}

export interface Fleet {
  s: SimContext;
  clock: ManualClock;
  replicas: Replica[];
  admin: ContextClient;
  /** Advances virtual time by `ms` in steps; throws if two replicas ever lead at once. */
  run(ms: number, until?: () => boolean | Promise<boolean>): Promise<number>;
  leaders(): Replica[];
  lease(): Promise<Record<string, unknown>>;
  /** The GpuInventory status as the cluster holds it. */
  status(): Promise<{ nodes: { name: string; ready: boolean }[]; ready_gpu_nodes: number } | undefined>;
  /** Users of successful write-back requests (status and ConfigMap applies), in the order the sim served them. */
  writers(): string[];
  close(): Promise<void>;
}

const STEP_MS = 50;

async function grantReader(admin: ContextClient): Promise<void> {
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const objects: [string, Record<string, unknown>][] = [
    [
      `${rbac}/clusterroles`,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'controller-test-reader' },
        rules: [
          { apiGroups: [DEFAULT_CRD_GROUP], resources: ['gpuinventories'], verbs: ['get'] },
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'] },
        ],
      },
    ],
    [
      `${rbac}/clusterrolebindings`,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'controller-test-reader' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'controller-test-reader',
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'sim-readonly' }],
      },
    ],
  ];
  for (const [path, body] of objects) {
    const res = await admin.request('POST', path, {
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.body}`);
  }
}
const realPause = () => new Promise((r) => setTimeout(r, 8));

export async function startFleet(
  ids: string[] = ['replica-a', 'replica-b'],
  extra: Pick<ControllerOptions, 'fitLimits'> & { scenario?: string } = {},
  /** Each replica's Lease namespace (default: all in LEASE_NAMESPACE, one install). */
  leaseNamespaces: string[] = [],
): Promise<Fleet> {
  const { scenario, ...options } = extra;
  const s = await startSimContext(scenario ? { scenario } : {});
  const installer = new ContextClient(s.context('sim-admin'));
  await installWriteback(installer, { group: DEFAULT_CRD_GROUP, clock: systemClock });
  await grantReader(installer);
  installer.close();
  // The test reads as sim-readonly (granted reads of the Lease and the GpuInventory below), so a
  // partition of a replica's user never blinds the test itself.
  const admin = new ContextClient(s.context('sim-readonly'));
  const clock = new ManualClock(Date.now());
  const users = ['sim-admin', 'sim-revocable'];
  const replicas: Replica[] = [];
  for (const [i, id] of ids.entries()) {
    const user = users[i] as string;
    const link = await startLink(s.sim.url);
    const logs: Replica['logs'] = [];
    const logger = new Logger({ write: (line) => logs.push(JSON.parse(line)) }, 'info', 'controller', () =>
      clock.now(),
    );
    const controller = new Controller({
      context: throughLink(s.context(user), link.url),
      identity: id,
      leaseNamespace: leaseNamespaces[i] ?? LEASE_NAMESPACE,
      writeback: { group: DEFAULT_CRD_GROUP, configMapNamespace: DEFAULT_CONFIGMAP_NAMESPACE },
      logger,
      clock,
      random: () => 0,
      ...options,
    });
    replicas.push({ id, user, controller, link, logs });
  }
  const leaders = () => replicas.filter((r) => r.controller.leading);
  const getJson = async (path: string) => {
    const res = await admin.request('GET', path, { headers: { Accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  return {
    s,
    clock,
    replicas,
    admin,
    leaders,
    async run(ms, until) {
      let passed = 0;
      while (passed < ms) {
        clock.advance(STEP_MS);
        passed += STEP_MS;
        await realPause();
        const l = leaders();
        if (l.length > 1) throw new Error(`two leaders at once: ${l.map((r) => r.id).join(', ')}`);
        if (until && (await until())) return passed;
      }
      return passed;
    },
    lease: () => getJson(LEASE_PATH),
    async status() {
      const o = await getJson(`/apis/${DEFAULT_CRD_GROUP}/v1/gpuinventories/cluster`);
      return o.status as Awaited<ReturnType<Fleet['status']>> | undefined;
    },
    writers: () =>
      s.sim.control
        .requestLog()
        .filter(
          (e) =>
            e.method === 'PATCH' &&
            e.status >= 200 &&
            e.status < 300 &&
            /\/gpuinventories\/|\/configmaps\//.test(e.path),
        )
        .map((e) => e.user),
    async close() {
      await Promise.all(replicas.map((r) => r.controller.stop()));
      for (const r of replicas) await r.link.close();
      admin.close();
      await s.cleanup();
    },
  };
}

/** The writers in order with repeats folded: ['sim-admin', 'sim-revocable'] is one hand-over. */
export function writerRuns(users: string[]): string[] {
  return users.filter((u, i) => i === 0 || users[i - 1] !== u);
}
