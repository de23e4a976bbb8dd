/**
 * The ONE typed contract between the engine host (Electron main, or the loopback web bridge) and the
 * renderer: invoke channels with their argument schemas and results, and push events.
 * Both sides derive their types from this file; hosts validate every argument with `ARG_SCHEMAS`.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { Alert } from './alerts.ts';
import type { FleetSnapshot, KubeContextInfo } from './fleet.ts';

const Snooze = Type.Union([
  Type.Object({ kind: Type.Literal('for'), ms: Type.Integer({ minimum: 1, maximum: 7 * 24 * 3600_000 }) }),
  Type.Object({ kind: Type.Literal('tomorrow') }),
  Type.Object({ kind: Type.Literal('resumed') }),
]);

/** Argument tuples of each invoke channel, as schemas: the host validates before it acts. */
export const ARG_SCHEMAS = {
  'fleet:snapshot': Type.Tuple([]),
  'fleet:focus': Type.Tuple([Type.String({ minLength: 1, maxLength: 253 })]),
  'contexts:list': Type.Tuple([]),
  'contexts:set-monitored': Type.Tuple([
    Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 200 }),
  ]),
  'alerts:log': Type.Tuple([]),
  'alerts:snooze': Type.Tuple([
    Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()]),
    Snooze,
  ]),
  'app:info': Type.Tuple([]),
} satisfies Record<string, TSchema>;

export interface AppInfo {
  version: string;
  mode: 'electron' | 'browser';
  demo: boolean;
  /** Set when no kubeconfig was found: the UI offers the demo cluster. */
  noKubeconfig: boolean;
  notices: string[];
}

/** Result type of each invoke channel. */
export interface InvokeResults {
  'fleet:snapshot': FleetSnapshot;
  'fleet:focus': FleetSnapshot;
  'contexts:list': KubeContextInfo[];
  'contexts:set-monitored': KubeContextInfo[];
  'alerts:log': Alert[];
  'alerts:snooze': FleetSnapshot;
  'app:info': AppInfo;
}

export type InvokeChannel = keyof typeof ARG_SCHEMAS & keyof InvokeResults;
export type InvokeArgs<C extends InvokeChannel> = Static<(typeof ARG_SCHEMAS)[C]>;

/** Events the host pushes to the renderer. */
export interface PushEvents {
  'fleet:snapshot': FleetSnapshot;
  'alerts:new': Alert;
  /** Focus a context (and optionally a node), e.g. after a notification click. */
  'ui:focus': { context: string; node: string | null };
}
export type PushChannel = keyof PushEvents;

/** What `window.fleet` offers the renderer: derived from the contract, never restated by hand. */
export interface FleetApi {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResults[C]>;
  on<P extends PushChannel>(channel: P, listener: (payload: PushEvents[P]) => void): () => void;
}

export const INVOKE_CHANNELS = Object.keys(ARG_SCHEMAS) as InvokeChannel[];
export const PUSH_CHANNELS: readonly PushChannel[] = ['fleet:snapshot', 'alerts:new', 'ui:focus'];
