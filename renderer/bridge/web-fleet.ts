/**
 * `window.fleet` for browser mode: the same contract as Electron's preload, carried over the loopback
 * bridge (POST /api/invoke/<channel>, server-sent events on /api/events, kept open by web-stream.ts).
 * The session cookie the bridge set authenticates every request; nothing secret lives in this script.
 * A failed invoke rejects with `{kind, message}` (common/errors.ts), as Electron's preload does; one the
 * guard refused (the server restarted with another token) says how to get back in, never "HTTP 401".
 * No runes here (tests run it under plain Node): the page hands in where the link state goes and the
 * words of that sentence (bridge/connect.ts).
 */

import { BRIDGE_ENGLISH } from '../../common/bridge-words.ts';
import { STABLE_TOKEN_COMMAND } from '../../common/browser-session.ts';
import { asErrorInfo, type ErrorInfo } from '../../common/errors.ts';
import { translator } from '../../common/i18n/translator.ts';
import { type FleetApi, PUSH_CHANNELS, type PushChannel, type PushEvents } from '../../common/ipc.ts';
import { type LinkStatus, probeResult, StreamKeeper, type StreamSource } from './web-stream.ts';

// With their facts (common/bridge-words.ts), so the window words them in its language.
const disconnected: ErrorInfo = {
  kind: 'disconnected',
  message: BRIDGE_ENGLISH.noAnswer,
  words: { code: 'bridgeNoAnswer' },
};

/** The web bridge, plus local delivery: the browser's own notifier hands a click to the window as `ui:focus`. */
export interface WebFleet extends FleetApi {
  /** Hands a push to this page's listeners as if the host had sent it. */
  deliver<P extends PushChannel>(channel: P, payload: PushEvents[P]): void;
}

export interface WebFleetOptions {
  /** Hears whether the event stream is open (the header shows it), and each reconnection. */
  link?: { set(status: LinkStatus): void; back(): void };
  /** The sentence for a server that restarted with another token, in the window's language. */
  tokenChanged?: () => string;
}

export function createWebFleet(base = '', opts: WebFleetOptions = {}): WebFleet {
  const listeners = new Map<PushChannel, Set<(payload: never) => void>>();
  const tokenChanged =
    opts.tokenChanged ??
    (() => translator('en').t('browserLink.tokenChanged', { command: STABLE_TOKEN_COMMAND }));
  const deliver = <P extends PushChannel>(channel: P, payload: PushEvents[P]) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload as never);
  };
  /** The id of the last fleet frame heard, so a new stream says where this page is (fleet-frames.ts). */
  let lastEventId = '';
  const attach = (source: StreamSource) => {
    for (const channel of PUSH_CHANNELS) {
      source.addEventListener(channel, (event) => {
        const e = event as { data?: unknown; lastEventId?: unknown };
        if (typeof e.lastEventId === 'string' && e.lastEventId !== '') lastEventId = e.lastEventId;
        deliver(channel, JSON.parse(String(e.data)) as never);
      });
    }
  };
  const post = (channel: string, args: unknown[]) =>
    fetch(`${base}/api/invoke/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
      credentials: 'same-origin',
    });
  const keeper = new StreamKeeper(
    {
      open: () =>
        new EventSource(
          lastEventId === ''
            ? `${base}/api/events`
            : `${base}/api/events?lastEventId=${encodeURIComponent(lastEventId)}`,
        ),
      probe: () =>
        post('app:info', []).then(
          (res) => probeResult(res.status),
          () => probeResult(null),
        ),
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
      now: () => Date.now(),
    },
    attach,
    (status) => opts.link?.set(status),
    () => opts.link?.back(),
  );
  return {
    deliver,
    async invoke(channel, ...args) {
      let res: Response;
      try {
        res = await post(channel, args);
      } catch {
        throw disconnected;
      }
      if (res.status === 401)
        throw {
          kind: 'unauthorized',
          message: tokenChanged(),
        } satisfies ErrorInfo;
      const body: unknown = await res.json().catch(() => null);
      const reply = typeof body === 'object' && body !== null ? body : {};
      if (res.ok && 'value' in reply) return reply.value as never;
      // A failure rejects with its {kind, message}, as the Electron preload does.
      throw (
        ('error' in reply ? asErrorInfo(reply.error) : null) ??
        ({
          kind: 'failed',
          message: BRIDGE_ENGLISH.http(res.status),
          words: { code: 'bridgeHttp', status: res.status },
        } satisfies ErrorInfo)
      );
    },
    // The bridge holds nothing for the page: every push goes to whoever listens on the event stream.
    ready() {},
    on<P extends PushChannel>(channel: P, listener: (payload: PushEvents[P]) => void) {
      keeper.start();
      const set = listeners.get(channel) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(channel, set);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}
