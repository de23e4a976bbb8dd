/**
 * Forks the engine host (main/engine-host/entry.ts, built beside the main bundle) as an Electron utility
 * process: a Node process of its own, so its event loop and heap are not the tray's.
 */
import path from 'node:path';
import { utilityProcess } from 'electron';
import type { HostChild } from './engine-host-client.ts';

/** `env`: the environment the app started with (KUBECONFIG and the rest), the same at every restart. */
export function forkEngineHost(env: NodeJS.ProcessEnv, onStderr: (line: string) => void): HostChild {
  const child = utilityProcess.fork(path.join(__dirname, 'engine-host.cjs'), [], {
    serviceName: 'GPU Fleet engine',
    env,
    stdio: 'pipe',
  });
  // What the host prints on its way down (an uncaught error's stack) goes to the shell's log.
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (tail + chunk.toString('utf8')).split('\n');
    tail = (lines.pop() ?? '').slice(-4096);
    for (const line of lines) if (line.trim()) onStderr(line);
  });
  child.stdout?.resume();
  // Electron emits 'error' (a V8 fatal error: out of memory…) on the UtilityProcess before its 'exit';
  // with no listener that emit would throw in this process. The 'exit' that follows restarts the host.
  child.on('error', (type: unknown, location: unknown) =>
    onStderr(`the engine host died of a fatal error: ${String(type)} at ${String(location)}`),
  );
  return {
    post: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', listener),
    kill: () => {
      child.kill();
    },
  };
}
