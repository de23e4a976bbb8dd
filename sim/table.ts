// Server-side Table rendering (kubectl get): node columns, CRD printer columns, humanized ages.
import { getPath, obj, str } from './json.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

const NAME_DESC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DESC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const HOLDER_DESC =
  'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.';
const ADDR_DESC =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

const col = (name: string, description: string, priority = 0, type = 'string', format = ''): JsonObject => ({
  name,
  type,
  format,
  description,
  priority,
});

/** k8s.io/apimachinery duration.HumanDuration */
export function humanAge(created: Json | undefined, now = Date.now()): string {
  if (typeof created !== 'string') return '<unknown>';
  const secs = Math.floor((now - Date.parse(created)) / 1000);
  if (secs < -1) return '<invalid>';
  if (secs < 0) return '0s';
  if (secs < 120) return `${secs}s`;
  const mins = Math.floor(secs / 60);
  if (mins < 10) return secs % 60 === 0 ? `${mins}m` : `${mins}m${secs % 60}s`;
  if (mins < 180) return `${mins}m`;
  const hours = Math.floor(mins / 60);
  if (hours < 8) return mins % 60 === 0 ? `${hours}h` : `${hours}h${mins % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192)
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${years}y`;
}

function nodeCells(o: KObj): Json[] {
  const st = obj(o.status);
  const conds = Array.isArray(st.conditions) ? st.conditions.filter(isObj) : [];
  const ready = conds.find((c) => c.type === 'Ready');
  let status = ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown';
  if (obj(o.spec).unschedulable === true) status += ',SchedulingDisabled';
  const labels = obj(o.metadata.labels);
  const roles = Object.keys(labels)
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  const info = obj(st.nodeInfo);
  const addrs = Array.isArray(st.addresses) ? st.addresses.filter(isObj) : [];
  const addr = (t: string) => str(addrs.find((a) => a.type === t)?.address) ?? '<none>';
  const orUnknown = (v: Json | undefined) => (typeof v === 'string' && v !== '' ? v : '<unknown>');
  return [
    String(o.metadata.name),
    status,
    roles.length ? roles.join(',') : '<none>',
    humanAge(o.metadata.creationTimestamp),
    str(info.kubeletVersion) ?? '',
    addr('InternalIP'),
    addr('ExternalIP'),
    orUnknown(info.osImage),
    orUnknown(info.kernelVersion),
    orUnknown(info.containerRuntimeVersion),
  ];
}

function columns(def: ResourceDef): JsonObject[] {
  if (def.resource === 'nodes') {
    return [
      col('Name', NAME_DESC, 0, 'string', 'name'),
      col('Status', 'The status of the node'),
      col('Roles', 'The roles of the node'),
      col('Age', AGE_DESC),
      col('Version', 'Kubelet Version reported by the node.'),
      col('Internal-IP', ADDR_DESC, 1),
      col('External-IP', ADDR_DESC, 1),
      col(
        'OS-Image',
        'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
        1,
      ),
      col(
        'Kernel-Version',
        "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        1,
      ),
      col(
        'Container-Runtime',
        'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
        1,
      ),
    ];
  }
  if (def.resource === 'configmaps')
    return [
      col('Name', NAME_DESC, 0, 'string', 'name'),
      col('Data', 'Data contains the configuration data.'),
      col('Age', AGE_DESC),
    ];
  if (def.resource === 'leases' && def.builtin)
    return [col('Name', NAME_DESC, 0, 'string', 'name'), col('Holder', HOLDER_DESC), col('Age', AGE_DESC)];
  if (def.resource === 'namespaces')
    return [
      col('Name', NAME_DESC, 0, 'string', 'name'),
      col('Status', 'The status of the namespace'),
      col('Age', AGE_DESC),
    ];
  if (!def.builtin) {
    const extra = (def.printerColumns ?? []).map((c) =>
      col(
        String(c.name),
        str(c.description) ?? `Custom resource definition column (in JSONPath format): ${String(c.jsonPath)}`,
        Number(c.priority ?? 0),
        String(c.type ?? 'string'),
        str(c.format) ?? '',
      ),
    );
    return [col('Name', NAME_DESC, 0, 'string', 'name'), ...extra];
  }
  return [col('Name', NAME_DESC, 0, 'string', 'name'), col('Created At', AGE_DESC, 0, 'date')];
}

function cells(def: ResourceDef, o: KObj): Json[] {
  if (def.resource === 'nodes') return nodeCells(o);
  const name = String(o.metadata.name);
  const age = humanAge(o.metadata.creationTimestamp);
  if (def.resource === 'configmaps')
    return [name, Object.keys(obj(o.data)).length + Object.keys(obj(o.binaryData)).length, age];
  if (def.resource === 'namespaces') return [name, str(obj(o.status).phase) ?? '', age];
  if (def.resource === 'leases' && def.builtin) return [name, str(obj(o.spec).holderIdentity) ?? '', age];
  if (!def.builtin) {
    return [
      name,
      ...(def.printerColumns ?? []).map((c) => {
        const v = getPath(
          o,
          String(c.jsonPath ?? '')
            .split('.')
            .filter(Boolean),
        );
        if (v === undefined) return null;
        return c.type === 'date' ? humanAge(v) : v;
      }),
    ];
  }
  return [name, o.metadata.creationTimestamp ?? null];
}

export function toTable(
  def: ResourceDef,
  items: KObj[],
  listMeta: JsonObject,
  version: string,
  include: string,
): JsonObject {
  const rows = items.map((o) => {
    const row: JsonObject = { cells: cells(def, o) };
    if (include === 'Object') row.object = o;
    else if (include !== 'None')
      row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMeta,
    columnDefinitions: columns(def),
    rows,
  };
}
