/**
 * `window.fleet` for browser mode: the same contract as Electron's preload, carried over the loopback
 * bridge (POST /api/invoke/<channel>, server-sent events on /api/events). The session cookie the
 * bridge set authenticates every request; nothing secret lives in this script.
 */
import { type FleetApi, PUSH_CHANNELS, type PushChannel, type PushEvents } from '../../common/ipc.ts';

export function createWebFleet(base = ''): FleetApi {
  const listeners = new Map<PushChannel, Set<(payload: never) => void>>();
  let source: EventSource | null = null;
  const ensureStream = () => {
    if (source) return;
    source = new EventSource(`${base}/api/events`);
    for (const channel of PUSH_CHANNELS) {
      source.addEventListener(channel, (event) => {
        const payload = JSON.parse((event as MessageEvent<string>).data) as never;
        for (const listener of listeners.get(channel) ?? []) listener(payload);
      });
    }
  };
  return {
    async invoke(channel, ...args) {
      const res = await fetch(`${base}/api/invoke/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
        credentials: 'same-origin',
      });
      const body = (await res.json()) as { value?: unknown; error?: string };
      if (!res.ok) throw new Error(body.error ?? `request failed with HTTP ${res.status}`);
      return body.value as never;
    },
    on<P extends PushChannel>(channel: P, listener: (payload: PushEvents[P]) => void) {
      ensureStream();
      const set = listeners.get(channel) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(channel, set);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}
