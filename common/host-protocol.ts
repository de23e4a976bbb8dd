/**
 * The messages between the desktop shell (Electron main: tray, notifications, window, IPC) and the
 * engine host (a utility process: watchers, inventory, alerts, write-back, settings). Derived from the
 * window's contract in ipc.ts, not a second protocol: an invoke carries an `InvokeChannel` and its
 * arguments exactly as the window sent them (the host validates them with `ARG_SCHEMAS`), a reply is an
 * `InvokeReply`, a push is a `PushChannel`. What only the shell needs is small and made by the host, in
 * the user's language (the tray's menu, the notifications, the shell's settings), so the process that
 * owns the tray never parses a 5,000-node snapshot nor words an alert: window payloads cross it as JSON
 * text it passes on unread.
 */
import { Type } from '@sinclair/typebox';
import {
  FORWARD_TARGETS_MAX,
  type ForwardSecretInput,
  ForwardSecretInputSchema,
  TARGET_ID,
} from './forwarding.ts';
import { LanguageSettingSchema } from './i18n/language-schema.ts';
import type { LanguageSetting } from './i18n/locales.ts';
import { INVOKE_CHANNELS, type InvokeReply, PUSH_CHANNELS } from './ipc.ts';
import type { DesktopNotice } from './notification.ts';
import type { TrayModel } from './tray-menu.ts';

/** The largest message text either side accepts (a 5,000-node snapshot is about 1.7 MB of JSON). */
export const HOST_MESSAGE_JSON_MAX = 64 * 1024 * 1024;
/** The largest log line the shell writes for the host. */
export const HOST_LOG_LINE_MAX = 16 * 1024;

/** The settings the shell acts on itself; the host owns the settings file and tells the shell these. */
export interface ShellSettings {
  language: LanguageSetting;
  launchAtLogin: boolean;
  window: { x: number; y: number; width: number; height: number; maximized: boolean } | null;
}

export interface HostStats {
  /** The host's longest event-loop delay since the last stats request (perf_hooks histogram), ms. */
  loopDelayMaxMs: number;
  rssBytes: number;
}

/** What the shell tells the host at start: where the settings live and what the OS says. */
export interface HostInit {
  type: 'init';
  /** The folder of the settings file (Electron's userData). */
  settingsDir: string;
  version: string;
  /** The OS's preferred languages (Electron's app.getPreferredSystemLanguages). */
  systemLanguages: string[];
  /** Whether a window exists now (so the first whole snapshot is pushed to it); see the `window` message. */
  windowOpen: boolean;
}

/** Shell → host. */
export type ShellMessage =
  | HostInit
  | { type: 'invoke'; id: number; channel: string; args: unknown[] }
  | { type: 'save-window'; window: NonNullable<ShellSettings['window']> }
  /** Whether a window exists to push to: without one the host encodes and sends no window pushes. */
  | { type: 'window'; open: boolean }
  | { type: 'stats'; id: number }
  /**
   * The forwarding targets' secrets, per target id, decrypted by the shell from its safeStorage vault:
   * sent after `init` and whenever one changes (the whole set each time). The host keeps them in memory
   * only and never sends them back, logs them or words them.
   */
  | { type: 'secrets'; secrets: Record<string, ForwardSecretInput> }
  /** Save and stop; the host exits when done. */
  | { type: 'stop' };

/** A reply as it crosses the shell: the value stays JSON text (`json`) until the window parses it. */
export type HostReply = Exclude<InvokeReply, { ok: true; value: unknown }>;

/** Host → shell. */
export type HostMessage =
  /** The host listens: the shell sends `init` only now (a message sent before would be lost). */
  | { type: 'listening' }
  /** The engine runs and answers invokes. */
  | { type: 'ready' }
  | { type: 'reply'; id: number; reply: HostReply }
  /** A push for the window, already JSON text. */
  | { type: 'push'; channel: (typeof PUSH_CHANNELS)[number]; json: string }
  /** The tray's icon, tooltip and menu, worded; sent only when it changed. */
  | { type: 'tray'; model: TrayModel }
  /** An alert the host's policy says to notify (after the hold-down, not snoozed), worded; `context` groups it. */
  | { type: 'notify'; notice: DesktopNotice; context: string }
  | { type: 'shell'; settings: ShellSettings }
  /** One log line, already redacted and gated by the host's Logger. */
  | { type: 'log'; line: string }
  | { type: 'stats'; id: number; stats: HostStats };

const Id = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Json = Type.String({ maxLength: HOST_MESSAGE_JSON_MAX });
const Literals = <T extends readonly string[]>(names: T) => Type.Union(names.map((n) => Type.Literal(n)));
const Bounds = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number({ minimum: 0 }),
  height: Type.Number({ minimum: 0 }),
  maximized: Type.Boolean(),
});

/** An object schema that refuses fields it does not name. */
const Strict = (props: Parameters<typeof Type.Object>[0]) =>
  Type.Object(props, { additionalProperties: false });

/**
 * The envelopes, checked on arrival by both sides; the shell's (the host acts on them) refuse extra fields. The host is our own code, but a confused or half-dead
 * process must not take the shell down: the tray and notify payloads are checked for their shape here
 * and used behind a try (the tray model reads only what TrayFleet names).
 */
export const SHELL_MESSAGE_SCHEMA = Type.Union([
  Strict({
    type: Type.Literal('init'),
    settingsDir: Type.String({ minLength: 1, maxLength: 4096 }),
    version: Type.String({ maxLength: 100 }),
    systemLanguages: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }),
    windowOpen: Type.Boolean(),
  }),
  Strict({
    type: Type.Literal('invoke'),
    id: Id,
    channel: Literals(INVOKE_CHANNELS),
    args: Type.Array(Type.Unknown(), { maxItems: 16 }),
  }),
  Strict({ type: Type.Literal('save-window'), window: Bounds }),
  Strict({ type: Type.Literal('window'), open: Type.Boolean() }),
  Strict({ type: Type.Literal('stats'), id: Id }),
  Strict({
    type: Type.Literal('secrets'),
    secrets: Type.Record(Type.String({ pattern: TARGET_ID.source }), ForwardSecretInputSchema, {
      maxProperties: FORWARD_TARGETS_MAX,
      // TypeBox's pattern-keyed record lets other keys through unless told not to.
      additionalProperties: false,
    }),
  }),
  Strict({ type: Type.Literal('stop') }),
]);

/** The tray's model as the shell acts on it: each action's kind and fields (a click sends them back). */
const TrayActionSchema = Type.Union([
  Type.Object({
    kind: Type.Union(['open-window', 'settings', 'open-log', 'quit'].map((k) => Type.Literal(k))),
  }),
  Type.Object({
    kind: Type.Union([Type.Literal('focus'), Type.Literal('use-context')]),
    context: Type.String({ maxLength: 1000 }),
  }),
  // Pause and resume: one context's, or every context's (no `context`).
  Type.Object({
    kind: Type.Literal('pause'),
    until: Type.Object({ kind: Type.String({ maxLength: 50 }) }),
    context: Type.Optional(Type.String({ maxLength: 1000 })),
  }),
  Type.Object({ kind: Type.Literal('resume'), context: Type.Optional(Type.String({ maxLength: 1000 })) }),
]);
const TrayItemSchema = Type.Recursive((Item) =>
  Type.Object({
    label: Type.String({ maxLength: 1000 }),
    type: Type.Optional(
      Type.Union([Type.Literal('separator'), Type.Literal('checkbox'), Type.Literal('submenu')]),
    ),
    enabled: Type.Optional(Type.Boolean()),
    checked: Type.Optional(Type.Boolean()),
    action: Type.Optional(TrayActionSchema),
    submenu: Type.Optional(Type.Array(Item, { maxItems: 1000 })),
  }),
);
const TrayModelSchema = Type.Object({
  icon: Type.Union(
    ['unreachable', 'down', 'degraded', 'all-ready', 'idle', 'paused'].map((k) => Type.Literal(k)),
  ),
  tooltip: Type.String({ maxLength: 100_000 }),
  menu: Type.Array(TrayItemSchema, { maxItems: 5000 }),
});

const ErrorInfoSchema = Type.Object({ kind: Type.String(), message: Type.String({ maxLength: 100_000 }) });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const HOST_MESSAGE_SCHEMA = Type.Union([
  Type.Object({ type: Type.Literal('listening') }),
  Type.Object({ type: Type.Literal('ready') }),
  Type.Object({
    type: Type.Literal('reply'),
    id: Id,
    reply: Type.Union([
      Type.Object({ ok: Type.Literal(true), json: Json }),
      Type.Object({ ok: Type.Literal(false), error: ErrorInfoSchema }),
    ]),
  }),
  Type.Object({ type: Type.Literal('push'), channel: Literals(PUSH_CHANNELS), json: Json }),
  Type.Object({ type: Type.Literal('tray'), model: TrayModelSchema }),
  Type.Object({
    type: Type.Literal('notify'),
    context: Type.String({ maxLength: 1000 }),
    notice: Type.Object({
      title: Type.String({ maxLength: 1000 }),
      body: Type.String({ maxLength: 10_000 }),
      silent: Type.Boolean(),
      tag: Type.String({ maxLength: 1000 }),
      focus: Type.Object({
        context: Type.String({ maxLength: 1000 }),
        node: Nullable(Type.String({ maxLength: 1000 })),
      }),
    }),
  }),
  Type.Object({
    type: Type.Literal('shell'),
    settings: Type.Object({
      language: LanguageSettingSchema,
      launchAtLogin: Type.Boolean(),
      window: Type.Union([Bounds, Type.Null()]),
    }),
  }),
  Type.Object({ type: Type.Literal('log'), line: Type.String({ maxLength: HOST_LOG_LINE_MAX }) }),
  Type.Object({
    type: Type.Literal('stats'),
    id: Id,
    stats: Type.Object({ loopDelayMaxMs: Type.Number(), rssBytes: Type.Number() }),
  }),
]);
