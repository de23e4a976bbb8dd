/**
 * The job `gpu-fleet fit` asks about, from its flags or a pod file: how many GPUs of which kind (whole,
 * a MIG profile, shared replicas, or exactly the resource a pod file names), of which product, with which
 * tolerations. Everything is checked here and refused with one sentence (a usage error, exit 2).
 */
import { readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { isObj, type JsonRecord } from '../../../common/json-guards.ts';
import { isLabelValue, isQualifiedName } from '../../../common/k8s-names.ts';
import type { FitRequest, FitWant } from '../../inventory/fit.ts';
import { gpuRequestsOfSpec, readTolerations } from '../../inventory/gpu-pod.ts';
import { LABEL } from '../../inventory/labels.ts';
import type { Toleration } from '../../inventory/tolerations.ts';
import { CliError } from '../io.ts';

export const USAGE_EXIT = 2;
const MAX_GPUS = 1024;
const MAX_POD_FILE = 1 << 20;
const EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
const PROFILE = /^\d+g\.\d+gb(\+me)?$/;

export interface FitFlags {
  gpus?: string | undefined;
  product?: string | undefined;
  mig?: string | undefined;
  shared?: boolean | undefined;
  tolerate?: string[] | undefined;
  filename?: string | undefined;
}

const usage = (message: string) => new CliError(message, USAGE_EXIT, "See 'gpu-fleet fit --help' for usage.");

export function fitRequestOf(flags: FitFlags): FitRequest {
  const tolerations = (flags.tolerate ?? []).map(parseToleration);
  const product = flags.product === undefined ? null : productFlag(flags.product);
  if (flags.filename !== undefined) {
    if (flags.gpus !== undefined || flags.mig !== undefined || flags.shared === true)
      throw usage('-f takes the GPUs from the pod file: --gpus, --mig and --shared cannot be used with it');
    return fromPodFile(flags.filename, product, tolerations);
  }
  if (flags.gpus === undefined) throw usage('--gpus N is required (or -f POD.yaml)');
  if (!/^\d+$/.test(flags.gpus) || Number(flags.gpus) < 1 || Number(flags.gpus) > MAX_GPUS)
    throw usage(`--gpus must be a whole number from 1 to ${MAX_GPUS}, not "${flags.gpus.slice(0, 40)}"`);
  if (flags.mig !== undefined && flags.shared === true)
    throw usage('--mig and --shared cannot be used together');
  let want: FitWant = { kind: 'whole' };
  if (flags.mig !== undefined) {
    if (!PROFILE.test(flags.mig))
      throw usage(`--mig takes a MIG profile such as 1g.10gb, not "${flags.mig.slice(0, 40)}"`);
    want = { kind: 'mig', profile: flags.mig };
  } else if (flags.shared === true) want = { kind: 'shared' };
  return { count: Number(flags.gpus), want, product, tolerations };
}

function productFlag(p: string): string {
  if (p.trim() === '' || p.length > 63 || !/^[A-Za-z0-9 ._-]+$/.test(p))
    throw usage(`--product takes a product name such as A100 or "RTX 4090", not "${p.slice(0, 40)}"`);
  return p;
}

/** `KEY[=VALUE]:EFFECT`, or `KEY[=VALUE]` for every effect; a toleration with operator Equal (Exists without a value). */
export function parseToleration(text: string): Toleration {
  const m = /^([^=:]+)(?:=([^:]*))?(?::([A-Za-z]+))?$/.exec(text);
  const key = m?.[1];
  if (m === null || key === undefined || !isQualifiedName(key))
    throw usage(
      `--tolerate takes KEY[=VALUE]:EFFECT (e.g. nvidia.com/gpu:NoSchedule), not "${text.slice(0, 80)}"`,
    );
  const effect = m[3] ?? null;
  if (effect !== null && !EFFECTS.has(effect))
    throw usage(`--tolerate: the effect must be NoSchedule, PreferNoSchedule or NoExecute, not "${effect}"`);
  const value = m[2];
  if (value !== undefined && !isLabelValue(value))
    throw usage(`--tolerate: "${value.slice(0, 80)}" is not a label value`);
  return value === undefined
    ? { key, operator: 'Exists', value: null, effect }
    : { key, operator: 'Equal', value, effect };
}

function fromPodFile(file: string, product: string | null, extra: Toleration[]): FitRequest {
  let text: string;
  try {
    if (statSync(file).size > MAX_POD_FILE) throw usage(`${file} is larger than 1 MiB; is it a pod?`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw usage(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch {
    throw usage(`${file} is not YAML or JSON`);
  }
  const spec = podSpecOf(doc);
  if (spec === null) throw usage(`${file} holds no pod spec (a Pod, or a workload with spec.template.spec)`);
  const requests = Object.entries(gpuRequestsOfSpec(spec));
  if (requests.length === 0) throw usage(`the pod in ${file} requests no GPU resource`);
  if (requests.length > 1)
    throw usage(
      `the pod in ${file} requests several GPU resources (${requests.map(([r]) => r).join(', ')}); ask for one`,
    );
  const [[resource, count]] = requests as [[string, number]];
  const selector = isObj(spec.nodeSelector) ? spec.nodeSelector[LABEL.product] : undefined;
  return {
    count,
    want: { kind: 'resource', resource },
    product: product ?? (typeof selector === 'string' && selector !== '' ? selector : null),
    tolerations: [...readTolerations(spec.tolerations), ...extra],
  };
}

function podSpecOf(doc: unknown): JsonRecord | null {
  if (!isObj(doc) || !isObj(doc.spec)) return null;
  if (doc.kind === 'Pod' || Array.isArray(doc.spec.containers)) return doc.spec;
  const template = isObj(doc.spec.template) ? doc.spec.template : null;
  if (template !== null && isObj(template.spec)) return template.spec;
  const job =
    isObj(doc.spec.jobTemplate) && isObj(doc.spec.jobTemplate.spec) ? doc.spec.jobTemplate.spec : null;
  const jt = job !== null && isObj(job.template) ? job.template : null;
  return jt !== null && isObj(jt.spec) ? jt.spec : null;
}
