// The pods/proxy subresource (GET /api/v1/namespaces/NS/pods/ID/proxy/PATH) as kube-apiserver serves it
// (transcript 12 steps 37-43): ID is "name", "name:port" or "scheme:name:port" (SplitSchemeNamePort);
// authorization is on "pods/proxy" with the whole ID as the name; a missing pod is 404 by its name; a pod
// whose podIP is not a global-unicast address (none yet, loopback, link-local) is 400 "address not
// allowed". Past that the apiserver dials the pod: a running nvidia-dcgm-exporter on port 9400 answers
// its metrics (sim/dcgm.ts); anything else refuses the connection, which the apiserver reports as 503
// "error trying to reach service" (not in the transcripts; the wording kubectl users quote).
import type { Attributes } from './auth.ts';
import { forbidden } from './auth.ts';
import type { Core } from './core.ts';
import { makeExporter, metricsText, modelFromLabel, type SimExporter } from './dcgm.ts';
import { ApiError, apiError, badRequest, notFound } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendBytes } from './http.ts';
import { obj, str } from './json.ts';
import type { KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

export const EXPORTER_LABEL = 'nvidia-dcgm-exporter';
export const EXPORTER_PORT = 9400;

export interface PodProxyRoute {
  namespace: string;
  id: string;
  path: string;
}

/** `/api/v1/namespaces/NS/pods/ID/proxy[/PATH]`, or undefined for any other path. */
export function parsePodProxy(parts: readonly string[]): PodProxyRoute | undefined {
  if (parts.length < 7) return undefined;
  const [api, v1, nss, ns, pods, id, proxy] = parts;
  if (api !== 'api' || v1 !== 'v1' || nss !== 'namespaces' || pods !== 'pods' || proxy !== 'proxy')
    return undefined;
  return { namespace: ns as string, id: id as string, path: `/${parts.slice(7).join('/')}` };
}

/** k8s.io/apimachinery SplitSchemeNamePort: scheme "", "http" or "https" and a non-empty name. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | null {
  const p = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (p.length === 1) name = p[0] as string;
  else if (p.length === 2) [name, port] = p as [string, string];
  else if (p.length === 3) [scheme, name, port] = p as [string, string, string];
  else return null;
  if (name === '' || !['', 'http', 'https'].includes(scheme)) return null;
  return { scheme, name, port };
}

/** net.IP.IsGlobalUnicast for IPv4 and the common IPv6 forms: not loopback, link-local, multicast, unspecified. */
export function isProxyableIp(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const o = v4.slice(1).map(Number);
    if (o.some((x) => x > 255)) return false;
    const [a = 0, b = 0] = o;
    if (a === 0 || a === 127 || a >= 224 || (a === 169 && b === 254)) return false;
    return true;
  }
  if (!ip.includes(':') || !/^[0-9a-fA-F:]+$/.test(ip)) return false;
  const lower = ip.toLowerCase();
  if (lower === '::' || lower === '::1') return false;
  return !(
    lower.startsWith('fe8') ||
    lower.startsWith('fe9') ||
    lower.startsWith('fea') ||
    lower.startsWith('feb') ||
    lower.startsWith('ff')
  );
}

const VERBS: Record<string, string> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** The simulated exporters, one per node, made on first use from the node's GPU labels. */
const exporters = new WeakMap<Core, Map<string, SimExporter>>();

export function exporterFor(core: Core, node: string): SimExporter {
  let byNode = exporters.get(core);
  if (!byNode) {
    byNode = new Map();
    exporters.set(core, byNode);
  }
  let e = byNode.get(node);
  if (!e) {
    const def = core.registry.find('', 'v1', 'nodes') as ResourceDef;
    const labels = obj(core.get(def, '', node)?.metadata.labels);
    const count = Number(labels['nvidia.com/gpu.count'] ?? 1);
    const memory = Number(labels['nvidia.com/gpu.memory'] ?? 81_920);
    e = makeExporter(
      node,
      Number.isInteger(count) && count > 0 && count <= 16 ? count : 1,
      modelFromLabel(str(labels['nvidia.com/gpu.product'])),
      Number.isFinite(memory) && memory > 0 ? memory : 81_920,
    );
    byNode.set(node, e);
  }
  return e;
}

function firstContainerPort(pod: KObj): string {
  for (const c of Array.isArray(obj(pod.spec).containers) ? (obj(pod.spec).containers as unknown[]) : []) {
    if (!isObj(c) || !Array.isArray(c.ports)) continue;
    const p = c.ports.find(isObj);
    if (p && typeof p.containerPort === 'number') return String(p.containerPort);
  }
  return '';
}

function unreachable(ip: string, port: string, why: string) {
  return apiError(503, `error trying to reach service: dial tcp ${ip}:${port}: ${why}`, 'ServiceUnavailable');
}

/** `allowed` is the authorizer's answer for these attributes (dispatch passes it in: one place knows how). */
export function servePodProxy(
  core: Core,
  ctx: Ctx,
  route: PodProxyRoute,
  allowed: (a: Attributes) => boolean,
): void {
  const attrs: Attributes = {
    verb: VERBS[ctx.method] ?? ctx.method.toLowerCase(),
    group: '',
    resource: 'pods',
    subresource: 'proxy',
    name: route.id,
    namespace: route.namespace,
  };
  if (!allowed(attrs)) {
    // The authorizer's 403 carries nosniff (transcript 12 step 41, 08 steps 3-4).
    throw new ApiError(403, forbidden(ctx.user, attrs).body, { 'X-Content-Type-Options': 'nosniff' });
  }
  const parsed = splitSchemeNamePort(route.id);
  if (!parsed) throw badRequest(`invalid pod request ${JSON.stringify(route.id)}`);
  const def = core.registry.find('', 'v1', 'pods') as ResourceDef;
  const pod = core.get(def, route.namespace, parsed.name);
  if (!pod) throw notFound(def, parsed.name);
  const port = parsed.port || firstContainerPort(pod);
  const status = obj(pod.status);
  const ip = str(status.podIP) ?? '';
  if (!isProxyableIp(ip)) throw badRequest('address not allowed');
  const isExporter = obj(pod.metadata.labels).app === EXPORTER_LABEL;
  const running = status.phase === 'Running' && !pod.metadata.deletionTimestamp;
  const shown = port === '' ? '80' : port;
  if (!isExporter || !running || port !== String(EXPORTER_PORT))
    throw unreachable(ip, shown, 'connect: connection refused');
  if (parsed.scheme === 'https') {
    throw apiError(
      503,
      'error trying to reach service: tls: first record does not look like a TLS handshake',
      'ServiceUnavailable',
    );
  }
  if (route.path !== '/metrics') {
    sendBytes(ctx, 404, Buffer.from('404 page not found\n'), {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    return;
  }
  const node = String(obj(pod.spec).nodeName ?? '');
  const exporter = exporterFor(core, node);
  sendBytes(ctx, 200, Buffer.from(metricsText(exporter, core.now(), gpuBusy(core, node))), {
    'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
  });
}

/**
 * Whether a node's GPUs are at work: the node is Ready and a Running pod on it asks for an `nvidia.com/`
 * resource. A NotReady node (omen2's container network is down) serves nothing, so its GPU idles.
 */
export function gpuBusy(core: Core, node: string): boolean {
  const nodes = core.registry.find('', 'v1', 'nodes') as ResourceDef;
  const conditions = obj(core.get(nodes, '', node)?.status).conditions;
  const ready = Array.isArray(conditions)
    ? conditions.some((c) => isObj(c) && c.type === 'Ready' && c.status === 'True')
    : false;
  if (!ready) return false;
  const pods = core.registry.find('', 'v1', 'pods') as ResourceDef;
  return core.list(pods).some((p) => {
    const spec = obj(p.spec);
    if (spec.nodeName !== node || obj(p.status).phase !== 'Running' || p.metadata.deletionTimestamp)
      return false;
    const containers = Array.isArray(spec.containers) ? spec.containers : [];
    return containers.some((c) => {
      const r = obj(obj(c).resources);
      return [...Object.keys(obj(r.limits)), ...Object.keys(obj(r.requests))].some((k) =>
        k.startsWith('nvidia.com/'),
      );
    });
  });
}

/** Seeds the exporter of `node` with GPUs of a given model (scenarios; otherwise made from the node's labels). */
export function seedExporter(
  core: Core,
  node: string,
  count: number,
  model: string,
  memoryMiB: number,
): void {
  exporterFor(core, node);
  exporters.get(core)?.set(node, makeExporter(node, count, model, memoryMiB));
}
