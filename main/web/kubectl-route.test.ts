/**
 * Browser mode's route for switching kubectl's context: the generic invoke route, behind the same guard
 * as every write (our Host, our Origin, the session cookie). A cross-site or token-less POST is refused
 * and the kubeconfig is untouched; our own page switches it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { AppCore } from '../fleet/app-core.ts';
import { openSettings } from '../settings/store.ts';
import { cookieName } from './guard.ts';
import { startWebBridge, type WebBridge } from './server.ts';

let env: SimContext;
let core: AppCore;
let bridge: WebBridge;

beforeEach(async () => {
  env = await startSimContext({ scenario: 'homelab' });
  core = new AppCore({
    settings: openSettings({ cwd: path.join(env.dir, 'settings') }),
    kubeconfig: { explicitPath: env.kubeconfigPath },
    mode: 'browser',
    version: 'test',
    watchFiles: false,
  });
  fs.writeFileSync(path.join(env.dir, 'index.html'), '<!doctype html>');
  bridge = await startWebBridge({ host: core, staticDir: env.dir });
});
afterEach(async () => {
  await bridge.close();
  core.stop();
  await env.cleanup();
});

const post = (headers: Record<string, string>, name = 'sim-readonly') =>
  fetch(`http://127.0.0.1:${bridge.port}/api/invoke/kubectl:use-context`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify([name]),
  });
const session = () => ({ cookie: `${cookieName(bridge.port)}=${bridge.token}` });

describe('POST /api/invoke/kubectl:use-context', () => {
  it('refuses a foreign Origin and a request without the session, and writes nothing', async () => {
    const bytes = fs.readFileSync(env.kubeconfigPath);
    const foreign = await post({ ...session(), origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const anonymous = await post({ origin: `http://127.0.0.1:${bridge.port}` });
    expect(anonymous.status).toBe(401);
    expect(fs.readFileSync(env.kubeconfigPath).equals(bytes)).toBe(true);
  });

  it('switches from our own page and answers the new current context', async () => {
    const r = await post({ ...session(), origin: `http://127.0.0.1:${bridge.port}` });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { value: { current: string } }).value.current).toBe('sim-readonly');
    expect(fs.readFileSync(env.kubeconfigPath, 'utf8')).toMatch(/^current-context: sim-readonly$/m);
  });

  it('answers a refusal with its kind and sentence', async () => {
    const r = await post({ ...session() }, 'nope');
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({
      error: {
        kind: 'not-found',
        message: `There is no context named "nope" in the kubeconfig (${env.kubeconfigPath}).`,
        words: { code: 'kubeNoContext', name: 'nope', files: env.kubeconfigPath },
      },
    });
  });
});
