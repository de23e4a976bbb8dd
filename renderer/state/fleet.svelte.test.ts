/**
 * A window that opened while the engine host was down (every invoke failed) recovers on its own once the
 * restarted host pushes its first whole snapshot: it loads what it missed and leaves "failed".
 */
import { describe, expect, it } from 'vitest';
import type { SyncedSnapshot } from '../../common/fleet-sync.ts';
import type { AppInfo, FleetApi, PushChannel } from '../../common/ipc.ts';
import { context, fleet, inventory, node } from '../fixtures/homelab.ts';
import { FleetStore } from './fleet.svelte.ts';

const INFO: AppInfo = { version: '1', mode: 'electron', demo: false, noKubeconfig: false, notices: [] };
const DOWN = {
  kind: 'disconnected',
  message: 'The GPU Fleet engine stopped before it answered; it is restarting.',
};

function hostThatIsDown() {
  let up = false;
  const listeners = new Map<PushChannel, (p: unknown) => void>();
  const snapshot: SyncedSnapshot = {
    ...fleet([context('lab', inventory([node('gpu-a')]))], 'lab'),
    epoch: 'B',
    seq: 1,
  };
  const api = {
    invoke: async (channel: string) => {
      if (!up) throw DOWN;
      if (channel === 'app:info') return INFO;
      if (channel === 'alerts:log') return [];
      if (channel === 'fleet:snapshot') return snapshot;
      throw { kind: 'failed', message: channel };
    },
    on: (channel: PushChannel, listener: (p: unknown) => void) => {
      listeners.set(channel, listener);
      return () => listeners.delete(channel);
    },
    ready: () => undefined,
  } as unknown as FleetApi;
  const restart = () => {
    up = true;
    listeners.get('fleet:snapshot')?.(snapshot);
  };
  return { api, restart };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0));
};

describe('a window opened while the engine was down', () => {
  it('fails with the sentence, then is ready once the restarted host pushes its snapshot', async () => {
    const host = hostThatIsDown();
    const store = new FleetStore(host.api);
    await store.start();
    expect(store.load).toBe('failed');
    expect(store.error).toContain('restarting');
    host.restart();
    await turns();
    expect(store.load).toBe('ready');
    expect(store.error).toBeNull();
    expect(store.info).toEqual(INFO);
    expect(store.current?.contexts.map((c) => c.context)).toEqual(['lab']);
  });
});
