/** Help texts of the `gpu-fleet` command, kubectl-style. */

export const USAGE = `gpu-fleet — watch the GPU nodes of your Kubernetes clusters

Usage:
  gpu-fleet <command> [flags]

Commands:
  contexts     List kubeconfig contexts and whether each is monitored
  scan         Connect once, list nodes, print the GPU inventory
  free         Free GPUs by product (and per node with -o wide) across clusters
  fit          Where a job with N GPUs can run now, or why not
  describe     Why a node is (not) Ready: conditions, taints, GPU facts, GPU pods, events
  top          GPU utilisation, temperature, memory and XID per GPU node (DCGM exporter)
  watch        Run the monitoring loop (inventory, connection, alert and write lines)
  history      What the app recorded: episodes, alerts, ready GPU nodes, energy (its timeline)
  serve        Serve the app's window in a browser, on 127.0.0.1 only
  sim          Run the built-in Kubernetes API simulator (the demo cluster)
  notify       Send a test message to a forwarding target (ntfy, webhook, Slack, Discord)
  crd          Print the GpuInventory CustomResourceDefinition
  controller   Run the in-cluster controller (leader election on a Lease), or print its manifests
  use-context  Set kubectl's current context (changes only that line of the kubeconfig)

Flags:
  -h, --help       Help for gpu-fleet or a command
  --version        Print the version

Use "gpu-fleet <command> --help" for more information about a command.
`;

const HELP_TEXTS = {
  contexts: `List kubeconfig contexts and whether each is monitored.

Usage:
  gpu-fleet contexts [--kubeconfig FILE]
`,
  scan: `Connect once, list nodes, print the GPU inventory.

Usage:
  gpu-fleet scan [--kubeconfig FILE] [--context NAME | --all-contexts] [-o table|wide|json|yaml]

With one context, -o json prints exactly the GpuInventory status object.
`,
  free: `Free GPUs by product across clusters: per context and product, free (on Ready, uncordoned nodes),
allocatable, in use (requested by live pods, the scheduler's rule) and capacity; -o wide per node and
GPU resource. When pods cannot be listed the context says "free GPUs unknown: pods are forbidden" and
its free and in use read "unknown" (null in -o json), beside what its nodes offer. With --all-contexts,
contexts that reach one cluster (same server and CA) are counted once and named together.

Usage:
  gpu-fleet free [--kubeconfig FILE] [--context NAME | --all-contexts] [-o table|wide|json|yaml]
`,
  fit: `Where a job can run now: the nodes (in which clusters) with that many free GPUs of the kind asked on
one node, Ready, not cordoned, with no taint the job does not tolerate. Otherwise why not, per cluster, in
the order you would fix it: no such product; enough in total but not on one node; cordoned; tainted;
NotReady; not enough free; free GPUs unknown (pods forbidden: the nodes are named, without counts).

Usage:
  gpu-fleet fit --gpus N [--product P] [--mig PROFILE | --shared] [--tolerate KEY[=VALUE]:EFFECT]...
                [--kubeconfig FILE] [--context NAME | --all-contexts] [-o table|json|yaml]
  gpu-fleet fit -f POD.yaml [--product P] [--tolerate ...] [--context NAME | --all-contexts]

Without --mig or --shared the job asks for whole GPUs (nvidia.com/gpu). -f reads a Pod (or a workload's
pod template): its GPU request by the scheduler's rule, its tolerations and its product nodeSelector.
Exit status: 0 when it fits somewhere, 1 when not, 2 on a usage error, 3 when it cannot be told (no fit
found, and free GPUs are unknown or unread in a cluster that offers what was asked).
`,
  describe: `Why a node is (not) Ready: its conditions, taints, system info, GPU facts, the pods on it that
request GPUs, and its recent events (read once, on demand).

Usage:
  gpu-fleet describe NODE [--kubeconfig FILE] [--context NAME] [-o table|json|yaml]

-o json prints the node detail object: name, conditions[] (type, status, reason, message, since…),
taints[], gpu (the inventory entry), events[] (type, reason, message, count, last…) and
pods[] (namespace, name, phase, gpus), telemetry (the DCGM exporter reading, or why there is none)
and gpus[] (index, uuid, model, utilPercent, temperatureC, powerW, memoryUsedMiB, memoryTotalMiB, xid,
xidMeaning, history[]).
`,
  history: `What the GPU Fleet app recorded in its timeline (the database in its data folder), read-only, so
it works while the app runs: the episodes ("nuc1 NotReady 02:14–02:31 (17 min): …"), ready GPU nodes,
energy, and with -o wide every change and alert. Times are UTC.

Usage:
  gpu-fleet history [--context NAME] [--node NODE] [--since 24h | --from TIME --to TIME] [-o table|wide|json|yaml]

--since takes s, m, h or d (default 24h); --from/--to take RFC 3339 times. Without --context every
recorded context is shown (-o json then prints a list).
`,
  top: `One pass over a context's GPU nodes: each GPU's utilisation, temperature, memory and last XID, read
from the GPU Operator's DCGM exporter through the API server (pods/proxy, your own credentials).

Usage:
  gpu-fleet top [--kubeconfig FILE] [--context NAME] [-o table|json]

At most 200 GPU nodes are read, 4 at a time. A node without a reading says why on its row
("not available — no DCGM exporter", "forbidden: pods/proxy").
`,
  watch: `Run the monitoring loop until interrupted.

Usage:
  gpu-fleet watch [--kubeconfig FILE] [--context NAME | --all-contexts] [--write-back] [--group G]
                  [--configmap-namespace NS] [--write-interval 5s] [--take-over] [--hold-down 30s]
                  [--source auto|nodes|controller] [--controller-namespace NS] [-o json] [-v]
                  [--forward KIND=URL ...] [--forward-token-file F | --forward-user-file F]
                  [--forward-signing-key-file F] [--forward-context C ...]
                  [--forward-min-severity low|default|high|urgent] [--forward-language en|zh-CN|ko|ja]

--source auto (the default) reads the in-cluster controller's GpuInventory (group --group) while its
Lease gpu-fleet-controller in --controller-namespace (default gpu-fleet) is fresh, and watches every
node itself otherwise; nodes always watches nodes; controller never does. Write-back is not done for
a context while its inventory comes from the controller (the controller writes it).

--write-back keeps the GpuInventory status (server-side apply, only on meaningful change, at most one
write per --write-interval) and the gpu-node-status ConfigMap in step; -v logs to stderr.
It never takes over what another tool manages (a ConfigMap it did not create, status fields of another
field manager): that is a "conflict" naming the owner. --take-over allows it (keys of the ConfigMap
that other tools own are still never written or deleted).

With -o json it prints one JSON object per line: {"type":"inventory","source":"controller"|"nodes",...},
{"type":"connection",...}, {"type":"alert",...}, {"type":"telemetry",...} (a DCGM exporter reading),
{"type":"node-events",...} (Kubernetes events about a GPU node), {"type":"ignored",...} (nodes with
invalid names), {"type":"write",...}, {"type":"forward",...}.

--forward KIND=URL (repeatable; KIND ntfy, webhook, slack or discord; for ntfy the server and topic,
e.g. ntfy=http://127.0.0.1:8090/gpu-alerts) sends every alert that would notify to that target too,
after the same hold-down and flap damping. Secrets come from 0600 files (--forward-token-file, or
--forward-user-file holding user:password, for ntfy; --forward-signing-key-file for webhooks) or from
GPU_FLEET_FORWARD_TOKEN, GPU_FLEET_FORWARD_USER, GPU_FLEET_FORWARD_SIGNING_KEY. Undelivered messages
are kept in the data folder (forward-queue-cli.json) and sent after a restart. --forward-context
(repeatable) limits the targets to those contexts, --forward-min-severity drops less urgent alerts,
--forward-language words the messages in another language. See docs/forwarding.md.
`,
  notify: `Send one test message to a forwarding target now, and say whether it arrived.

Usage:
  gpu-fleet notify test KIND=URL [--forward-token-file F | --forward-user-file F]
                                 [--forward-signing-key-file F]

KIND is ntfy, webhook, slack or discord, as for watch --forward. Exit status 0 when the target accepted it.
`,
  serve: `Serve the app's window in a browser, on 127.0.0.1 only.

Usage:
  gpu-fleet serve [--demo] [--port P] [--kubeconfig FILE] [--stable-token] [--forward KIND=URL ...] [--forward-token-file F]

The address it prints carries a session token; every start makes a new one. --port P with
--stable-token keeps one address across restarts (so a bookmark works): the token is kept in the
file serve-token of the config folder, made 0600; a file others can read is refused.
--forward and its secret flags work as for watch: the alerts the page notifies are also sent there.
`,
  sim: `Run the built-in Kubernetes API simulator in the foreground.

Usage:
  gpu-fleet sim [--scenario homelab|smalllab|large:N|flapping] [--port P] [--kubeconfig-out FILE [--force]] [--controls]

--kubeconfig-out refuses to overwrite an existing file unless --force is given.
--controls also serves the fault-injection endpoints (POST /sim/control/<verb>, admin token) for tests
and benchmarks; without it that path answers 404, as a real API server does.
`,
  'use-context': `Set kubectl's current context, the way \`kubectl config use-context NAME\` does.

Usage:
  gpu-fleet use-context NAME [--kubeconfig FILE]

The name is written into the file kubectl itself would write: --kubeconfig, else the first file of
KUBECONFIG that exists, else ~/.kube/config. Only the current-context value changes (comments, order and
formatting stay); the file is replaced atomically with the same mode, through a symlink to its target.
It refuses, and changes nothing, when the context does not exist, the file is read-only or not valid
YAML, or the file changed while it was being written. Exit status 1 on any refusal.
`,
  crd: `Print the GpuInventory CustomResourceDefinition manifest, or install it.

Usage:
  gpu-fleet crd [--group G] [-o yaml|json]
  gpu-fleet crd --install [--kubeconfig FILE] [--context NAME] [--group G]

--install checks permission first (SelfSubjectAccessReview), creates the CRD unless one of the same
shape exists, waits until it is Established and creates the "cluster" object.
`,
  controller: `Run the in-cluster controller, or print its deployment manifests.

Usage:
  gpu-fleet controller [--kubeconfig FILE] [--context NAME] [--group G] [--configmap-namespace NS]
                       [--lease-namespace NS] [--id ID] [--metrics-addr HOST:PORT]
                       [--serviceaccount-dir DIR] [--lease-duration 15s] [--renew-deadline 10s]
                       [--retry-period 2s] [-v]
  gpu-fleet controller manifests [--namespace NS] [--image IMAGE] [--group G] [--replicas N]
                                 [--metrics-namespace NS] [--out-dir DIR]

Replicas elect a leader on the Lease gpu-fleet-controller in --lease-namespace (default: the pod's
namespace); only the leader writes the GpuInventory status and the ConfigMap. Without --kubeconfig or
--context and with KUBERNETES_SERVICE_HOST/PORT set, the pod's service account is used (token, ca.crt
and namespace in /var/run/secrets/kubernetes.io/serviceaccount, or --serviceaccount-dir). --id defaults
to the host name (the pod name) plus "_" and a random UUID, as client-go's; --metrics-addr (default 127.0.0.1:8080) serves /healthz, /readyz and
/metrics. Logs are JSON lines on stdout. SIGTERM releases the lease and stops within 10 s.

manifests prints the Namespace, CRD, ServiceAccount, RBAC, Deployment and a NetworkPolicy (only pods in
--metrics-namespace, default monitoring, and the node's kubelet reach the metrics port) as YAML (for
kubectl apply -f -); --out-dir writes them as a kustomize base instead (deploy/ in the repository).
`,
};

/** Help per command, as a Map: a command name comes from the command line, so it is never an object key. */
export const COMMAND_HELP: ReadonlyMap<string, string> = new Map(Object.entries(HELP_TEXTS));
