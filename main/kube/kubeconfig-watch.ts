/**
 * Re-reads the kubeconfig when one of its files changes and hands the new load to the caller, which keeps
 * the contexts whose contextFingerprint() did not change. Watches each file and its folder: editors and
 * `kubectl config` replace files by rename, which ends a watch on the file itself, and a folder watch also
 * sees a missing file appear. Events are debounced, and the watches are renewed after every reload.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Clock, systemClock } from './clock.ts';
import { type KubeconfigLocateOptions, loadKubeconfig, locateKubeconfigFiles } from './kubeconfig.ts';
import type { KubeconfigLoad } from './kubeconfig-types.ts';

export interface KubeconfigWatchOptions extends KubeconfigLocateOptions {
  clock?: Clock;
  debounceMs?: number;
}

export interface KubeconfigWatch {
  close(): void;
}

export function watchKubeconfig(
  opts: KubeconfigWatchOptions,
  onChange: (load: KubeconfigLoad) => void,
): KubeconfigWatch {
  const clock = opts.clock ?? systemClock;
  const debounceMs = opts.debounceMs ?? 250;
  let watchers: fs.FSWatcher[] = [];
  let timer: unknown = null;
  let closed = false;

  const arm = () => {
    for (const w of watchers) w.close();
    watchers = [];
    const { files } = locateKubeconfigFiles(opts);
    const names = new Map<string, Set<string>>();
    for (const f of files) {
      const dir = path.dirname(f);
      if (!names.has(dir)) names.set(dir, new Set());
      names.get(dir)?.add(path.basename(f));
      tryWatch(f, () => kick());
    }
    for (const [dir, base] of names) {
      // filename can be null on some platforms: then any change in the folder counts.
      tryWatch(dir, (name) => {
        if (name === null || base.has(name)) kick();
      });
    }
  };

  const tryWatch = (target: string, fn: (name: string | null) => void) => {
    try {
      const w = fs.watch(target, { persistent: false }, (_event, name) =>
        fn(name === null ? null : String(name)),
      );
      w.on('error', () => kick());
      watchers.push(w);
    } catch {
      // A file or folder that does not exist yet: the folder watch (or the next reload) covers it.
    }
  };

  const kick = () => {
    if (closed) return;
    if (timer !== null) clock.clearTimeout(timer);
    timer = clock.setTimeout(() => {
      timer = null;
      if (closed) return;
      arm();
      onChange(loadKubeconfig(opts));
    }, debounceMs);
  };

  arm();
  return {
    close() {
      closed = true;
      if (timer !== null) clock.clearTimeout(timer);
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}
