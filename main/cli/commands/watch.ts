/** `gpu-fleet watch`: run the engine until Ctrl-C, printing inventory, connection and alert lines. */

import { DEFAULT_ALERT_RULES } from '../../../common/alert-rules.ts';
import { clusterText as terminalText } from '../../../common/cluster-text.ts';
import { unlabeledGpuNodes } from '../../../common/inventory-counts.ts';
import { isNamespaceName } from '../../../common/k8s-names.ts';
import {
  DEFAULT_CONTROLLER_NAMESPACE,
  DEFAULT_INVENTORY_SOURCE,
  INVENTORY_SOURCES,
  type InventorySource,
} from '../../../common/settings.ts';
import { type EngineEvent, FleetEngine } from '../../fleet/engine.ts';
import { logEngine } from '../../fleet/engine-log.ts';
import type { SourceConfig } from '../../fleet/source/monitor-source.ts';
import { Forwarder } from '../../forward/forwarder.ts';
import { FilePendingStore } from '../../forward/pending-store.ts';
import type { DeliveryEvent } from '../../forward/recorder.ts';
import { formatInventoryTable } from '../../inventory/index.ts';
import { Logger } from '../../log/logger.ts';
import { defaultConfigDir } from '../../settings/paths.ts';
import { validateGroup } from '../../writeback/crd.ts';
import { WritebackHub, type WritebackSettings } from '../../writeback/hub.ts';
import { DEFAULT_CONFIGMAP_NAMESPACE, DEFAULT_CRD_GROUP, type WriteEvent } from '../../writeback/index.ts';
import { parseDuration, parseFlags } from '../flags.ts';
import { FORWARD_FLAGS, forwardTargets } from '../forward-flags.ts';
import { claimCliQueue } from '../forward-queue-slot.ts';
import { CliError, type CliIo, terminalLine } from '../io.ts';
import { loadForCli, pickContexts, TARGET_FLAGS } from '../kube-target.ts';
import { parseOutput } from '../output.ts';

export const WATCH_FLAGS = {
  ...TARGET_FLAGS,
  output: { type: 'string', short: 'o' },
  'hold-down': { type: 'string' },
  'write-back': { type: 'boolean' },
  group: { type: 'string' },
  'configmap-namespace': { type: 'string' },
  'write-interval': { type: 'string' },
  'take-over': { type: 'boolean' },
  source: { type: 'string' },
  'controller-namespace': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  ...FORWARD_FLAGS,
} as const;

/** A delivery's line: `-o json` as {"type":"forward",…}, else one human line; secrets never reach either. */
function forwardLine(e: DeliveryEvent, json: boolean): string {
  if (json) return `${JSON.stringify({ type: 'forward', ...e, at: new Date(e.at).toISOString() })}\n`;
  const at = new Date(e.at).toISOString().slice(11, 19);
  return terminalLine(`${at} forward ${e.target}: ${e.outcome}${e.detail === null ? '' : ` — ${e.detail}`}`);
}

/** One JSON object per line: what `watch -o json` prints for each engine event (snapshots are for windows). */
export function eventLine(event: EngineEvent): string | null {
  switch (event.type) {
    case 'inventory':
      return JSON.stringify({
        type: 'inventory',
        context: event.context,
        stale: event.stale,
        source: event.source,
        ...event.inventory,
      });
    case 'connection': {
      // The CLI speaks English: the sentence's catalog key is for the window.
      const { words: _words, ...state } = event.state;
      return JSON.stringify({ type: 'connection', context: event.context, ...state });
    }
    case 'alert':
      return JSON.stringify({ ...event.alert, type: 'alert', alert: event.alert.kind });
    case 'ignored':
      return JSON.stringify(event);
    case 'telemetry': {
      // {"type":"telemetry","context","node","at":ISO,"gpus":[{index,uuid,model,util,temp,power,fbUsed,fbFree,xid,xidCounts}] | null}
      const r = event.reading;
      return JSON.stringify({
        type: 'telemetry',
        context: r.context,
        node: r.node,
        at: new Date(r.at).toISOString(),
        gpus: r.gpus,
      });
    }
    case 'node-events':
      // {"type":"node-events","context","node","events":[{uid,first,type,reason,message,count,last,source}]}
      return JSON.stringify({
        type: 'node-events',
        context: event.context,
        node: event.node,
        events: event.events,
      });
    case 'snapshot':
      return null;
  }
}

function writeHumanLine(e: WriteEvent): string {
  const at = e.at.slice(11, 19);
  const what = e.target === 'status' ? 'GpuInventory status' : 'ConfigMap gpu-node-status';
  return terminalLine(
    `${at} ${e.context}: ${what} ${e.action}${e.action === 'written' ? '' : ` — ${e.reason}`}`,
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The human lines of `watch`: one per inventory change, and one per change of a context's connection
 * phase or sentence (a retry that fails the same way again, with a new attempt count, prints nothing).
 */
export function humanPrinter(): (event: EngineEvent) => string | null {
  const shown = new Map<string, string>();
  const merged = new Map<string, string>();
  return (event) => {
    // --all-contexts: contexts that reach one cluster are watched once, under the first one's name. Say
    // so (as `free` does), or the others look forgotten.
    if (event.type === 'snapshot') {
      const at = new Date().toISOString().slice(11, 19);
      let out = '';
      for (const c of event.snapshot.contexts) {
        const others = (c.sameCluster ?? []).join(', ');
        if ((merged.get(c.context) ?? '') === others) continue;
        merged.set(c.context, others);
        if (others !== '')
          out += terminalLine(`${at} ${c.context}: the same cluster as ${others} (watched once)`);
      }
      return out === '' ? null : out;
    }
    if (event.type === 'connection') {
      const { phase, message } = event.state;
      const key = `${phase}\u0000${message ?? ''}`;
      if (shown.get(event.context) === key) return null;
      shown.set(event.context, key);
    }
    return humanLine(event);
  };
}

function humanLine(event: EngineEvent): string | null {
  const at = new Date().toISOString().slice(11, 19);
  switch (event.type) {
    case 'inventory': {
      const inv = event.inventory;
      const via = event.source === 'controller' ? ' (via in-cluster controller)' : '';
      const nodes = inv.total_gpu_nodes === 1 ? 'node' : 'nodes';
      // GPUs are counted from labels: say how many GPU nodes lost theirs, or "1 GPU" reads as the whole truth.
      const unlabeled = unlabeledGpuNodes(inv);
      const gpus =
        unlabeled === 0
          ? plural(inv.total_gpus, 'GPU', 'GPUs')
          : `${plural(inv.total_gpus, 'GPU', 'GPUs')} labelled · ${plural(unlabeled, 'node', 'nodes')} unlabeled`;
      const head = `${at} ${event.context}: ${inv.ready_gpu_nodes}/${inv.total_gpu_nodes} ready GPU ${nodes}, ${gpus}${via}`;
      return `${terminalLine(head)}${formatInventoryTable(inv, false)}\n`;
    }
    case 'connection':
      return terminalLine(
        `${at} ${event.context}: ${event.state.phase}${event.state.message ? ` — ${event.state.message}` : ''}`,
      );
    case 'alert':
      return terminalLine(
        `${at} ALERT${event.alert.suppressed ? ' (snoozed)' : ''} ${event.alert.title} — ${event.alert.body}`,
      );
    case 'ignored':
      return terminalLine(`${at} ${event.context}: ${event.message}`);
    case 'snapshot':
    case 'telemetry':
    case 'node-events':
      return null;
  }
}

function writeBackSettings(flags: {
  group?: string | undefined;
  'configmap-namespace'?: string | undefined;
  'write-interval'?: string | undefined;
  'take-over'?: boolean | undefined;
}): WritebackSettings {
  const group = flags.group ?? DEFAULT_CRD_GROUP;
  const problem = validateGroup(group);
  if (problem) throw new CliError(problem);
  const namespace = flags['configmap-namespace'] ?? DEFAULT_CONFIGMAP_NAMESPACE;
  if (!isNamespaceName(namespace))
    throw new CliError(`"${namespace}" is not a valid namespace name for --configmap-namespace`);
  const interval = flags['write-interval'];
  return {
    group,
    configMapNamespace: namespace,
    minIntervalMs: interval === undefined ? undefined : parseDuration(interval, '--write-interval'),
    takeOver: flags['take-over'] === true,
  };
}

/** `--source auto|nodes|controller` (default auto), `--controller-namespace NS`, and `--group` for the GpuInventory. */
function sourceFlags(flags: {
  source?: string | undefined;
  'controller-namespace'?: string | undefined;
  group?: string | undefined;
}): SourceConfig {
  const setting = flags.source ?? DEFAULT_INVENTORY_SOURCE;
  if (!INVENTORY_SOURCES.includes(setting as InventorySource))
    throw new CliError(
      `--source must be one of ${INVENTORY_SOURCES.join(', ')} (got "${terminalText(setting)}")`,
    );
  const namespace = flags['controller-namespace'] ?? DEFAULT_CONTROLLER_NAMESPACE;
  if (!isNamespaceName(namespace))
    throw new CliError(
      `"${terminalText(namespace)}" is not a valid namespace name for --controller-namespace`,
    );
  const group = flags.group ?? DEFAULT_CRD_GROUP;
  const problem = validateGroup(group);
  if (problem) throw new CliError(problem);
  return { setting: setting as InventorySource, namespace, group };
}

export async function watchCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, WATCH_FLAGS, 'watch');
  const format = parseOutput(flags.output, ['table', 'json'], 'table');
  const holdDownMs =
    flags['hold-down'] === undefined
      ? DEFAULT_ALERT_RULES.holdDownMs
      : parseDuration(flags['hold-down'], '--hold-down');
  const writeBack = flags['write-back'] === true ? writeBackSettings(flags) : null;
  const contexts = pickContexts(loadForCli(flags, io), flags);
  const source = sourceFlags(flags);
  const targets = forwardTargets(flags.forward ?? [], flags, io.env);
  // Each watch keeps its own queue file (another watch on the same folder takes the next slot).
  const slot = targets.length === 0 ? null : claimCliQueue(defaultConfigDir(io.env));
  const forwarder =
    slot === null
      ? null
      : new Forwarder(targets, {
          store: new FilePendingStore(slot.file),
          recorder: { record: (e) => io.stdout.write(forwardLine(e, format === 'json')) },
        });
  if (forwarder?.notice) io.stderr.write(terminalLine(forwarder.notice));
  const logger = flags.verbose ? new Logger({ write: (l) => io.stderr.write(l) }, 'debug', 'cli') : null;
  const engine = new FleetEngine({
    rules: { ...DEFAULT_ALERT_RULES, holdDownMs },
    source: () => source,
    // JSON lines carry the events about GPU nodes: they are watched for them.
    nodeEvents: format === 'json',
    ...(logger
      ? { debug: (context: string, line: string) => logger.debug('telemetry', { context, line }) }
      : {}),
  });
  const human = humanPrinter();
  engine.on((event) => {
    // Human lines end in their newline (terminalLine); JSON lines get one here.
    const line = format === 'json' ? eventLine(event) : human(event);
    if (line !== null) io.stdout.write(format === 'json' ? `${line}\n` : line);
    // The alerts that notify (not decided while paused) are the ones forwarded.
    if (event.type === 'alert' && !event.alert.suppressed) forwarder?.forward(event.alert);
  });
  if (logger) logEngine(engine, logger);
  // Subscribed after the printer, so an inventory line comes before the write lines it causes.
  const writers = writeBack
    ? new WritebackHub(engine, {}, (e) => {
        io.stdout.write(format === 'json' ? `${JSON.stringify(e)}\n` : writeHumanLine(e));
      })
    : null;
  engine.setContexts(contexts);
  writers?.set(contexts, () => writeBack);
  // Retry timers are unref'd so they never pin a finished process; this one keeps `watch` alive.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  await io.stopSignal;
  clearInterval(keepAlive);
  writers?.stop();
  engine.stop();
  forwarder?.stop();
  slot?.release();
  return 0;
}
