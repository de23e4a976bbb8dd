/**
 * `gpu-fleet controller`: the in-cluster controller (leader election, write-back, /healthz /readyz
 * /metrics, JSON logs on stdout) until SIGTERM/SIGINT; `gpu-fleet controller manifests`: its
 * deployment manifests. Without kubeconfig flags and with KUBERNETES_SERVICE_HOST/PORT set it uses the
 * pod's service account; otherwise the kubeconfig, as every other command.
 */

import fs from 'node:fs';
import path from 'node:path';
import { isNamespaceName } from '../../../common/k8s-names.ts';
import { DEFAULT_CONTROLLER_NAMESPACE } from '../../../common/settings.ts';
import { Controller } from '../../controller/controller.ts';
import {
  IN_CLUSTER_CONTEXT,
  inClusterContext,
  inClusterEnv,
  SERVICEACCOUNT_DIR,
} from '../../controller/in-cluster.ts';
import { DEFAULT_TIMING, type ElectionTiming, timingProblem } from '../../controller/leader-decision.ts';
import { defaultIdentity, identityProblem } from '../../controller/lease-record.ts';
import {
  DEFAULT_METRICS_NAMESPACE,
  kustomizationYaml,
  type ManifestOptions,
  manifestFiles,
  manifestProblem,
  manifestsYaml,
  yamlDocs,
} from '../../controller/manifests.ts';
import { OpsServer, parseListenAddress } from '../../controller/ops-server.ts';
import type { ResolvedContext } from '../../kube/kubeconfig-types.ts';
import { Logger } from '../../log/logger.ts';
import { validateGroup } from '../../writeback/crd.ts';
import { DEFAULT_CONFIGMAP_NAMESPACE, DEFAULT_CRD_GROUP } from '../../writeback/index.ts';
import { parseDuration, parseFlags } from '../flags.ts';
import { CliError, type CliIo } from '../io.ts';
import { loadForCli, pickContexts } from '../kube-target.ts';
import { packageVersion } from '../version.ts';

function namespaceFlag(value: string, flag: string): string {
  if (!isNamespaceName(value)) throw new CliError(`"${value}" is not a valid namespace name for ${flag}`);
  return value;
}

function groupFlag(value: string | undefined): string {
  const group = value ?? DEFAULT_CRD_GROUP;
  const problem = validateGroup(group);
  if (problem) throw new CliError(problem);
  return group;
}

/** The context to run on: the kubeconfig's when a kubeconfig flag is given or no cluster env is set. */
function target(
  flags: {
    kubeconfig?: string | undefined;
    context?: string | undefined;
    'serviceaccount-dir'?: string | undefined;
  },
  io: CliIo,
): { context: ResolvedContext; podNamespace: string | null } {
  const useKubeconfig =
    flags.kubeconfig !== undefined || flags.context !== undefined || !inClusterEnv(io.env);
  if (useKubeconfig) {
    const [context] = pickContexts(loadForCli(flags, io), flags);
    if (!context) throw new CliError('no context to run on');
    return { context, podNamespace: null };
  }
  const found = inClusterContext(io.env, flags['serviceaccount-dir'] ?? SERVICEACCOUNT_DIR);
  if (typeof found === 'string') throw new CliError(found);
  return { context: found.context, podNamespace: found.namespace };
}

/** kube-controller-manager's --leader-elect-* durations, with client-go's defaults. */
function timingFlags(flags: {
  'lease-duration'?: string | undefined;
  'renew-deadline'?: string | undefined;
  'retry-period'?: string | undefined;
}): ElectionTiming {
  const ms = (v: string | undefined, flag: string, fallback: number) =>
    v === undefined ? fallback : parseDuration(v, flag);
  const timing: ElectionTiming = {
    leaseDurationMs: ms(flags['lease-duration'], '--lease-duration', DEFAULT_TIMING.leaseDurationMs),
    renewDeadlineMs: ms(flags['renew-deadline'], '--renew-deadline', DEFAULT_TIMING.renewDeadlineMs),
    retryPeriodMs: ms(flags['retry-period'], '--retry-period', DEFAULT_TIMING.retryPeriodMs),
  };
  const problem = timingProblem(timing);
  if (problem) throw new CliError(`leader election: ${problem}`);
  return timing;
}

async function run(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      group: { type: 'string' },
      'configmap-namespace': { type: 'string' },
      'lease-namespace': { type: 'string' },
      id: { type: 'string' },
      'metrics-addr': { type: 'string' },
      'serviceaccount-dir': { type: 'string' },
      'lease-duration': { type: 'string' },
      'renew-deadline': { type: 'string' },
      'retry-period': { type: 'string' },
      verbose: { type: 'boolean', short: 'v' },
    },
    'controller',
  );
  const group = groupFlag(flags.group);
  const timing = timingFlags(flags);
  const addr = parseListenAddress(flags['metrics-addr'] ?? '127.0.0.1:8080');
  if (typeof addr === 'string') throw new CliError(addr);
  const identity = flags.id ?? defaultIdentity();
  const idProblem = identityProblem(identity);
  if (idProblem !== null) throw new CliError(idProblem);
  const { context, podNamespace } = target(flags, io);
  const leaseNamespace = namespaceFlag(
    flags['lease-namespace'] ?? podNamespace ?? context.namespace ?? 'default',
    '--lease-namespace',
  );
  const configMapNamespace = namespaceFlag(
    flags['configmap-namespace'] ?? DEFAULT_CONFIGMAP_NAMESPACE,
    '--configmap-namespace',
  );
  const logger = new Logger(
    { write: (l) => io.stdout.write(l) },
    flags.verbose ? 'debug' : 'info',
    'controller',
  );
  const controller = new Controller({
    context,
    identity,
    leaseNamespace,
    writeback: { group, configMapNamespace },
    logger,
    timing,
  });
  const ops = new OpsServer({
    health: () => controller.health(),
    ready: () => controller.readiness(),
    metrics: () => controller.metrics.rendered(),
  });
  let listening: { address: string; port: number };
  try {
    listening = await ops.listen(addr);
  } catch (e) {
    throw new CliError(
      `cannot listen on ${flags['metrics-addr'] ?? '127.0.0.1:8080'} for --metrics-addr: ${String(e)}`,
    );
  }
  logger.info('starting', {
    identity,
    version: packageVersion(),
    server: context.cluster?.cluster.server ?? null,
    config:
      context.name === IN_CLUSTER_CONTEXT
        ? 'in-cluster service account'
        : `kubeconfig context ${context.name}`,
    leaseNamespace,
    configMapNamespace,
    group,
    leaseDurationSeconds: timing.leaseDurationMs / 1000,
    renewDeadlineSeconds: timing.renewDeadlineMs / 1000,
    retryPeriodSeconds: timing.retryPeriodMs / 1000,
    metrics: `${listening.address}:${listening.port}`,
  });
  controller.start();
  // The controller's timers are background ones; this keeps the process alive until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  await io.stopSignal;
  logger.info('stopping');
  await controller.stop();
  await ops.close();
  clearInterval(keepAlive);
  logger.info('stopped');
  return 0;
}

function manifests(args: string[], io: CliIo): number {
  const flags = parseFlags(
    args,
    {
      namespace: { type: 'string' },
      image: { type: 'string' },
      group: { type: 'string' },
      replicas: { type: 'string' },
      'metrics-namespace': { type: 'string' },
      'out-dir': { type: 'string' },
    },
    'controller',
  );
  const replicas = flags.replicas === undefined ? 2 : Number(flags.replicas);
  const o: ManifestOptions = {
    namespace: flags.namespace ?? DEFAULT_CONTROLLER_NAMESPACE,
    image: flags.image ?? defaultImage(),
    group: groupFlag(flags.group),
    replicas,
    metricsNamespace: flags['metrics-namespace'] ?? DEFAULT_METRICS_NAMESPACE,
  };
  const problem = manifestProblem(o);
  if (problem) throw new CliError(problem);
  const dir = flags['out-dir'];
  if (dir === undefined) {
    io.stdout.write(manifestsYaml(o));
    return 0;
  }
  // A kustomize base: one file per kind of object, and the kustomization that lists them.
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, docs] of manifestFiles(o)) fs.writeFileSync(path.join(dir, file), yamlDocs(docs));
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), kustomizationYaml(o));
  io.stdout.write(`wrote the kustomize base to ${dir}\n`);
  return 0;
}

/** The image `docker build -t gpu-fleet:VERSION -f Containerfile .` makes (see docs/controller.md). */
export function defaultImage(): string {
  return `gpu-fleet:${packageVersion()}`;
}

export async function controllerCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === 'manifests') return manifests(args.slice(1), io);
  return run(args, io);
}
