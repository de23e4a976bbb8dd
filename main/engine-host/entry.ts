/**
 * The engine host's process entry (built to .vite/build/engine-host.cjs): Electron forks it as a utility
 * process from the desktop shell and talks to it over `process.parentPort`. It writes the settings file
 * through electron-store (settings-backend.ts).
 */
import { injectedClock } from '../kube/injected-clock.ts';
import { type HostPort, serveEngineHost } from './serve.ts';
import { electronStoreBackend } from './settings-backend.ts';

/** Electron's ParentPort as far as the host uses it. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

function isParentPort(v: unknown): v is ParentPortLike {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof Reflect.get(v, 'postMessage') === 'function' &&
    typeof Reflect.get(v, 'on') === 'function'
  );
}

const parentPort: unknown = Reflect.get(process, 'parentPort');
if (!isParentPort(parentPort)) {
  process.stderr.write(
    'The GPU Fleet engine host runs only inside the desktop app (it has no parent port).\n',
  );
  process.exit(2);
}
const port: HostPort = {
  post: (message) => parentPort.postMessage(message),
  onMessage: (listener) => parentPort.on('message', (event) => listener(event.data)),
};
const clock = injectedClock();
serveEngineHost(port, {
  env: process.env,
  ...(clock ? { clock } : {}),
  exit: (code) => process.exit(code),
  settingsBackend: electronStoreBackend,
});
