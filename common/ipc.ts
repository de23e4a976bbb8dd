/**
 * The ONE typed contract between the engine host (Electron main, or the loopback web bridge) and the
 * renderer: invoke channels with their argument schemas and results, and push events.
 * Both sides derive their types from this file; hosts validate every argument with `ARG_SCHEMAS`.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { Alert } from './alerts.ts';
import { BRIDGE_ENGLISH } from './bridge-words.ts';
import { asErrorInfo, type ErrorInfo } from './errors.ts';
import type { KubeContextInfo, KubectlContexts } from './fleet.ts';
import type { FleetDeltaFrame, SyncedSnapshot, SyncMark } from './fleet-sync.ts';
import {
  ForwardSecretInputSchema,
  ForwardTargetSettingSchema,
  type ForwardTestResult,
  type ForwardView,
  TARGET_ID,
} from './forwarding.ts';
import { ContextNameSchema, MAX_NODE_NAME, NodeNameSchema } from './k8s-names.ts';
import type { NodeDetail } from './node-detail.ts';
import { ContextListSchema, SettingsPatchSchema, type SettingsView } from './settings.ts';
import { type AwaySummary, TIMELINE_RANGES, type TimelineView } from './timeline.ts';

const Snooze = Type.Union([
  Type.Object({ kind: Type.Literal('for'), ms: Type.Integer({ minimum: 1, maximum: 7 * 24 * 3600_000 }) }),
  Type.Object({ kind: Type.Literal('tomorrow') }),
  Type.Object({ kind: Type.Literal('until-resumed') }),
]);

/** A kubeconfig context name to write into a kubeconfig or read a timeline of: never control characters. */
const ContextName = Type.String({
  minLength: 1,
  maxLength: MAX_NODE_NAME,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]+$',
});

/**
 * Argument tuples of each invoke channel, as schemas: the host validates before it acts. Exactly the
 * channels of `InvokeResults`: a channel missing here, or here without a result type, is a type error.
 */
export const ARG_SCHEMAS = {
  'fleet:snapshot': Type.Tuple([]),
  'fleet:focus': Type.Tuple([ContextNameSchema]),
  'contexts:list': Type.Tuple([]),
  'contexts:set-monitored': Type.Tuple([ContextListSchema]),
  'alerts:log': Type.Tuple([]),
  'alerts:snooze': Type.Tuple([Type.Union([ContextNameSchema, Type.Null()]), Snooze]),
  'alerts:resume': Type.Tuple([Type.Union([ContextNameSchema, Type.Null()])]),
  'writeback:install': Type.Tuple([ContextNameSchema]),
  /** (context name, on): allow (or stop allowing) write-back to take over another manager's fields. */
  'writeback:take-over': Type.Tuple([ContextNameSchema, Type.Boolean()]),
  'settings:get': Type.Tuple([]),
  'settings:update': Type.Tuple([SettingsPatchSchema]),
  'app:info': Type.Tuple([]),
  /** (context name, node name): a Kubernetes node name is a DNS subdomain of at most 253 characters. */
  'node:detail': Type.Tuple([ContextNameSchema, NodeNameSchema]),
  'kubectl:contexts': Type.Tuple([]),
  'kubectl:use-context': Type.Tuple([ContextName]),
  'forward:list': Type.Tuple([]),
  'forward:test': Type.Tuple([Type.String({ pattern: TARGET_ID.source })]),
  'forward:save': Type.Tuple([ForwardTargetSettingSchema]),
  'forward:remove': Type.Tuple([Type.String({ pattern: TARGET_ID.source })]),
  /** (target id, its secret or null to clear it): write-only, answered by Electron main (the vault). */
  'forward:secret': Type.Tuple([
    Type.String({ pattern: TARGET_ID.source }),
    Type.Union([ForwardSecretInputSchema, Type.Null()]),
  ]),
  /** One context's timeline over a range ending now, optionally one node's only. */
  'timeline:range': Type.Tuple([
    Type.Object(
      {
        context: ContextName,
        range: Type.Union(TIMELINE_RANGES.map((r) => Type.Literal(r))),
        node: Type.Optional(NodeNameSchema),
      },
      { additionalProperties: false },
    ),
  ]),
  'timeline:summary': Type.Tuple([]),
} satisfies ArgSchemas;

/** The shape ARG_SCHEMAS must have: one schema per channel of `InvokeResults`, no more, no fewer. */
export type ArgSchemas = { [C in keyof InvokeResults]: TSchema };

export interface AppInfo {
  version: string;
  mode: 'electron' | 'browser';
  demo: boolean;
  /** Set when no kubeconfig was found: the UI offers the demo cluster. */
  noKubeconfig: boolean;
  notices: string[];
  /**
   * The OS's preferred languages, most preferred first, where the host knows them (the desktop app), so
   * the window picks the language the tray and notifications use. Absent in browser mode: the window
   * follows navigator.languages there.
   */
  systemLanguages?: string[];
}

/** Result type of each invoke channel. */
export interface InvokeResults {
  'fleet:snapshot': SyncedSnapshot;
  'fleet:focus': SyncedSnapshot;
  'contexts:list': KubeContextInfo[];
  'contexts:set-monitored': KubeContextInfo[];
  'alerts:log': Alert[];
  'alerts:snooze': SyncedSnapshot;
  /** Ends a pause for one context, or for all (null). */
  'alerts:resume': SyncedSnapshot;
  /** Installs the GpuInventory CRD (after an access check) in a context with write-back on. */
  'writeback:install': { crd: 'created' | 'existing'; object: 'created' | 'existing' };
  /**
   * Turns take-over on or off for a context whose write-back is on, saves it, and restarts that
   * context's write-back: the next apply forces (on) or stops forcing (off). Rejects with one sentence
   * when write-back is off for the context.
   */
  'writeback:take-over': SyncedSnapshot;
  'settings:get': SettingsView;
  'settings:update': SettingsView;
  'app:info': AppInfo;
  /**
   * One node's detail, read from the cluster on demand (node GET, its events, its GPU pods). Nothing is
   * watched or kept for it: the window calls again to refresh while its panel is open. Rejects with one
   * sentence when the context is not monitored or the node does not exist; a part that could not be
   * read (403 on events or pods) is named in `partial` and the rest still arrives.
   */
  'node:detail': NodeDetail;
  /** kubectl's contexts and the current one, for the "kubectl context" switcher. */
  'kubectl:contexts': KubectlContexts;
  /**
   * Sets kubectl's current context (the user asked for it: the only path that writes a kubeconfig), the
   * way `gpu-fleet use-context` does, then re-reads the kubeconfig. Rejects with one sentence (the
   * context does not exist, the file is read-only, unparsable, or changed since it was read).
   */
  'kubectl:use-context': KubectlContexts;
  /** The alert forwarding targets (ntfy, webhooks) and their delivery state; never a secret. */
  'forward:list': ForwardView;
  /** Sends one test message to a target now; the answer says in one sentence whether it arrived. */
  'forward:test': ForwardTestResult;
  /** Desktop app: adds or replaces a target (settings only, no secret); rejects with one sentence. */
  'forward:save': ForwardView;
  /** Desktop app: removes a target, its undelivered messages and its secret. */
  'forward:remove': ForwardView;
  /**
   * Desktop app: sets (or, with null, clears) a target's secret. Electron main keeps it with safeStorage
   * and hands it to the engine host; the answer is the view, which says only whether a secret is set.
   */
  'forward:secret': ForwardView;
  /** The recorded timeline of a context (common/timeline.ts); its `status` says whether it is being written. */
  'timeline:range': TimelineView;
  /**
   * The morning summary, one line per monitored context, when the window opens after at least
   * AWAY_MIN_MS since it was last open (or since the app last ran); an empty list otherwise. Given once.
   */
  'timeline:summary': AwaySummary[];
}

export type InvokeChannel = keyof InvokeResults;
export type InvokeArgs<C extends InvokeChannel> = Static<(typeof ARG_SCHEMAS)[C]>;

/**
 * Events the host pushes to the renderer.
 *
 * The fleet stream (common/fleet-sync.ts): a publisher numbers every snapshot it publishes (`seq`, from
 * 1) within an `epoch` (random per publisher, so a restarted engine host is a new epoch). It pushes one
 * whole `fleet:snapshot` first, then a `fleet:delta` {epoch, from, to = from + 1, ...changes} for each
 * later snapshot that changed (a snapshot whose only news is its `generatedAt` is not pushed). Invoke
 * results that are snapshots (`fleet:snapshot`, `fleet:focus`, `alerts:snooze`, `alerts:resume`,
 * `writeback:take-over`) carry the epoch and seq they are, published before the reply. A window applies
 * a delta whose epoch is its own and whose `from` is its seq; on any other (a gap, a new epoch) it reads
 * one `fleet:snapshot` and applies the deltas after its seq. In browser mode every fleet frame of the
 * event stream has the SSE id `<epoch>:<seq>`, and a (re)connection whose Last-Event-ID is not the
 * current one gets a whole `fleet:snapshot` first; a new one (no Last-Event-ID) gets a `fleet:mark`, the
 * place the stream is at, and a window that holds an older snapshot (it read one before this connection
 * was there to hear the deltas after it) reads a whole one.
 */
export interface PushEvents {
  'fleet:snapshot': SyncedSnapshot;
  /** The change from snapshot `from` to `to` of `epoch` (common/fleet-delta.ts). */
  'fleet:delta': FleetDeltaFrame;
  /** Where the stream is now (browser mode, to a new event-stream connection). */
  'fleet:mark': SyncMark;
  'alerts:new': Alert;
  /**
   * An alert the host's policy says to notify (decided after the hold-down, not snoozed): the same
   * alert as `alerts:new`. Browser mode raises a Web Notification for it; Electron notifies from main.
   */
  'alerts:notify': Alert;
  /** Focus a context (and optionally a node), e.g. after a notification click. */
  'ui:focus': { context: string; node: string | null };
  /** Open one view of the window (e.g. the tray's "Settings…"). */
  'ui:show': { view: 'overview' | 'nodes' | 'history' | 'alerts' | 'settings' };
  /** Something the user must know that is not an alert: a recovered settings file, a kubeconfig warning. */
  'app:notice': { level: 'info' | 'warning' | 'error'; message: string };
  /** kubectl's contexts after the kubeconfig was re-read or switched. */
  'kubectl:contexts': KubectlContexts;
}
export type PushChannel = keyof PushEvents;

/**
 * The one message the renderer sends without an answer: it has subscribed to the pushes it needs.
 * Electron holds pushes to a window until its page sends this (main/electron/push-queue.ts).
 */
export const RENDERER_READY = 'renderer:ready';

/** What `window.fleet` offers the renderer: derived from the contract, never restated by hand. */
export interface FleetApi {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResults[C]>;
  on<P extends PushChannel>(channel: P, listener: (payload: PushEvents[P]) => void): () => void;
  /** Says `RENDERER_READY`: call once the window has subscribed to its pushes. */
  ready(): void;
}

export const INVOKE_CHANNELS = Object.keys(ARG_SCHEMAS) as InvokeChannel[];

/** One entry per push event: a channel missing here, or here without a payload type, is a type error. */
const PUSH_CHANNEL_SET = {
  'fleet:snapshot': true,
  'fleet:delta': true,
  'fleet:mark': true,
  'alerts:new': true,
  'alerts:notify': true,
  'ui:focus': true,
  'ui:show': true,
  'app:notice': true,
  'kubectl:contexts': true,
} as const satisfies { [P in PushChannel]: true };
export const PUSH_CHANNELS = Object.keys(PUSH_CHANNEL_SET) as readonly PushChannel[];

/** Something that delivers push events: every push is typed by `PushEvents`. */
export type PushSender = <P extends PushChannel>(channel: P, payload: PushEvents[P]) => void;

/**
 * What Electron's IPC handler answers (it never throws: Electron would turn the error into the string
 * "Error invoking remote method…" and lose its kind). The preload settles it with `settleReply`.
 */
export type InvokeReply =
  | { ok: true; value: unknown }
  /** The value as JSON text: the engine host's replies cross the shell unparsed (common/host-protocol.ts). */
  | { ok: true; json: string }
  | { ok: false; error: ErrorInfo };

/**
 * The value of a reply, or a rejection with its `{kind, message}` as plain data (a plain object crosses
 * Electron's contextBridge whole; an Error's own properties would not).
 */
export function settleReply(reply: unknown): Promise<unknown> {
  if (typeof reply === 'object' && reply !== null && 'ok' in reply) {
    if (reply.ok === true && 'value' in reply) return Promise.resolve(reply.value);
    if (reply.ok === true && 'json' in reply && typeof reply.json === 'string') {
      try {
        return Promise.resolve(JSON.parse(reply.json) as unknown);
      } catch {
        // falls through to "unexpected"
      }
    }
    const error = 'error' in reply ? asErrorInfo(reply.error) : null;
    if (reply.ok === false && error) return Promise.reject(error);
  }
  return Promise.reject({
    kind: 'failed',
    message: BRIDGE_ENGLISH.unexpected,
    words: { code: 'bridgeUnexpected' },
  } satisfies ErrorInfo);
}
