/** Writes throwaway kubeconfigs for the fault matrix and loads their one context with our own loader. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findContext, loadKubeconfig } from '../../main/kube/kubeconfig.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-fault-'));
}

export const caData = (pem: string) => Buffer.from(pem).toString('base64');

/** A kubeconfig with one context "x" (cluster "c", user "u"). */
export function writeKubeconfig(
  file: string,
  cluster: Record<string, unknown>,
  user: Record<string, unknown> | null,
): void {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster }],
    users: user ? [{ name: 'u', user }] : [],
    contexts: [{ name: 'x', context: user ? { cluster: 'c', user: 'u' } : { cluster: 'c' } }],
    'current-context': 'x',
  };
  fs.writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });
}

export function loadContext(file: string, name = 'x'): ResolvedContext {
  const load = loadKubeconfig({ explicitPath: file });
  if (load.kind !== 'loaded') throw new Error(load.message);
  const ctx = findContext(load, name);
  if (!ctx) throw new Error(`no context ${name} in ${file}`);
  return ctx;
}

export function contextFor(
  dir: string,
  cluster: Record<string, unknown>,
  user: Record<string, unknown> | null,
): ResolvedContext {
  const file = path.join(dir, `k-${Math.random().toString(36).slice(2)}.yaml`);
  writeKubeconfig(file, cluster, user);
  return loadContext(file);
}

/** An exec credential plugin: a shell script running `body` with this Node; relative to `dir`. */
export function execPlugin(dir: string, body: string): string {
  const js = path.join(dir, 'plugin.mjs');
  fs.writeFileSync(js, body);
  const sh = path.join(dir, 'plugin.sh');
  fs.writeFileSync(sh, `#!/bin/sh\nexec "${process.execPath}" "${js}" "$@"\n`, { mode: 0o755 });
  return sh;
}
