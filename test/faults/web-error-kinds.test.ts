/**
 * Errors keep their kind across HTTP: the browser bridge (renderer/bridge/web-fleet.ts) against the real
 * loopback server rejects every failed invoke with `{kind, message}` — a handler's own kind (a KubeError's),
 * 'failed' for a plain sentence, 'bad-request' for refused arguments, 'refused' for an unknown channel,
 * 'disconnected' when nothing answers — and the renderer's one reader (invokeError) reads it back.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refusal } from '../../common/i18n/forward-words-text.ts';
import type { InvokeHandlers } from '../../main/fleet/host.ts';
import { PushHub } from '../../main/fleet/host.ts';
import { KubeError } from '../../main/kube/errors.ts';
import { cookieName } from '../../main/web/guard.ts';
import { startWebBridge } from '../../main/web/server.ts';
import { createWebFleet } from '../../renderer/bridge/web-fleet.ts';
import { invokeError } from '../../renderer/lib/invoke-error.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

async function bridge(handlers: Partial<InvokeHandlers>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>GPU Fleet</title>');
  const hub = new PushHub();
  const b = await startWebBridge({
    host: { handlers: handlers as InvokeHandlers, onPush: (l) => hub.on(l) },
    staticDir: dir,
    clock: new ManualClock(),
  });
  cleanup(() => b.close());
  // A browser sends the session cookie by itself; Node's fetch is told to.
  globalThis.fetch = (input, init) =>
    realFetch(input, { ...init, headers: { ...init?.headers, cookie: `${cookieName(b.port)}=${b.token}` } });
  return createWebFleet(`http://127.0.0.1:${b.port}`);
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );

describe('the web bridge keeps the kind of a failure', () => {
  it("answers a value, and a KubeError's kind with its sentence unchanged", async () => {
    const fleet = await bridge({
      'app:info': () => ({ version: 't', mode: 'browser', demo: false, noKubeconfig: false, notices: [] }),
      'writeback:install': () => {
        throw new KubeError(
          'unauthorized',
          'The cluster rejected the credentials, or they have expired (401).',
        );
      },
    });
    expect((await fleet.invoke('app:info')).version).toBe('t');
    const e = await rejection(fleet.invoke('writeback:install', 'sim-admin'));
    expect(e).toEqual({
      kind: 'unauthorized',
      message: 'The cluster rejected the credentials, or they have expired (401).',
    });
    expect(invokeError(e)).toEqual(e);
  });

  it("names a handler's plain sentence 'failed', bad arguments 'bad-request', an unknown channel 'refused'", async () => {
    const fleet = await bridge({
      'settings:get': () => {
        throw new Error('context lab is not in your kubeconfig');
      },
    });
    expect(await rejection(fleet.invoke('settings:get'))).toEqual({
      kind: 'failed',
      message: 'context lab is not in your kubeconfig',
    });
    expect(await rejection(fleet.invoke('fleet:focus', 42 as unknown as string))).toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/^fleet:focus: /),
    });
    expect(await rejection((fleet.invoke as (c: string) => Promise<unknown>)('no:such-channel'))).toEqual({
      kind: 'refused',
      message: 'unknown channel "no:such-channel"',
    });
  });

  it("keeps a refusal's facts beside its sentence, for the window's language", async () => {
    const words = { code: 'tooMany', max: 16 } as const;
    const fleet = await bridge({
      'forward:save': () => {
        throw refusal(words);
      },
    });
    const target = {
      id: 'phone',
      kind: 'ntfy',
      url: 'http://127.0.0.1:8090',
      topic: 'gpu-alerts',
      clusters: 'all',
      minSeverity: 'low',
      language: 'en',
      enabled: true,
    } as const;
    const e = await rejection(fleet.invoke('forward:save', target));
    expect(e).toEqual({ kind: 'bad-request', message: 'At most 16 forwarding targets.', words });
    expect(invokeError(e)).toEqual(e);
  });

  it("says 'disconnected' when the bridge does not answer", async () => {
    const fleet = await bridge({});
    globalThis.fetch = () => Promise.reject(new TypeError('fetch failed'));
    expect(await rejection(fleet.invoke('app:info'))).toEqual({
      kind: 'disconnected',
      message: 'The GPU Fleet engine did not answer.',
      words: { code: 'bridgeNoAnswer' },
    });
  });
});
