/** `gpu-fleet serve`: the app's window in a browser, on 127.0.0.1 only, with the engine behind it. */
import path from 'node:path';
import type { DemoClusters } from '../../../sim/demo.ts';
import { type Demo, demoIfWanted } from '../../demo/demo.ts';
import { AppCore } from '../../fleet/app-core.ts';
import { Forwarder } from '../../forward/forwarder.ts';
import { FilePendingStore } from '../../forward/pending-store.ts';
import { type FolderLock, FolderLockedError, lockFolder } from '../../settings/folder-lock.ts';
import { defaultConfigDir } from '../../settings/paths.ts';
import { openSettings } from '../../settings/store.ts';
import { startWebBridge, type WebBridge } from '../../web/server.ts';
import { StableTokenError, stableToken } from '../../web/stable-token.ts';
import { parseFlags } from '../flags.ts';
import { FORWARD_FLAGS, forwardTargets } from '../forward-flags.ts';
import { CliError, type CliIo, terminalLine } from '../io.ts';
import { packageRoot } from '../package-root.ts';
import { packageVersion } from '../version.ts';
import { ensureWindowBuilt } from '../window-build.ts';

/** Browser mode's undelivered messages (apart from the desktop app's and `watch`'s). */
export const SERVE_PENDING_FILE = 'forward-queue-serve.json';

export const RENDERER_DIR = path.join(packageRoot(), '.vite/renderer/main_window');

export interface Served {
  bridge: WebBridge;
  core: AppCore;
  demo: Demo<DemoClusters> | null;
  close(): Promise<void>;
}

/** Starts engine + bridge; used by the command and by end-to-end tests. */
export async function startServe(
  opts: {
    demo: boolean;
    port: number;
    kubeconfig?: string | undefined;
    env: NodeJS.ProcessEnv;
    staticDir?: string;
    /** The session token (tests restart a server with the same one); else one per start. */
    token?: string;
    /** Keep the token in the config folder's 0600 file (`--stable-token`), so the address survives a restart. */
    stableToken?: boolean;
    /** Where notified alerts are also sent (`--forward`); stopped with the rest. */
    forwarder?: Forwarder | null;
  },
  say: (line: string) => void,
): Promise<Served> {
  // Read before anything starts: a refused token file ends the command with its sentence.
  let token = opts.token;
  if (opts.stableToken && token === undefined) {
    try {
      token = await stableToken(defaultConfigDir(opts.env));
    } catch (error) {
      if (error instanceof StableTokenError) throw new CliError(error.message);
      throw error;
    }
  }
  // The simulator is loaded only when the demo is chosen (a dynamic import: no other command links it).
  const chosen = await demoIfWanted(
    opts.demo,
    { explicitPath: opts.kubeconfig ?? null, env: opts.env },
    async () => (await import('../../../sim/demo.ts')).startDemoClusters(),
  );
  if (chosen?.reason === 'no-kubeconfig')
    say('No kubeconfig found: starting the built-in demo clusters (home-lab, small-lab).');
  const demo = chosen?.demo ?? null;
  const dataDir = demo ? demo.settingsDir : defaultConfigDir(opts.env);
  // One process per settings folder (the desktop app's lock): two would overwrite each other's settings.
  let lock: FolderLock;
  try {
    lock = lockFolder(dataDir);
  } catch (error) {
    opts.forwarder?.stop();
    await demo?.close();
    if (error instanceof FolderLockedError) throw new CliError(error.message);
    throw error;
  }
  const settings = openSettings({ cwd: dataDir });
  const core = new AppCore({
    settings,
    // Browser mode is the app: it records the timeline, unless the desktop app already does (read-only then).
    timelineDir: dataDir,
    kubeconfig: { explicitPath: demo ? demo.kubeconfigPath : (opts.kubeconfig ?? null), env: opts.env },
    mode: 'browser',
    version: packageVersion(),
    demo: demo !== null,
    ...(opts.forwarder ? { forwarder: opts.forwarder } : {}),
  });
  core.start();
  let bridge: WebBridge;
  try {
    bridge = await startWebBridge({
      host: core,
      staticDir: opts.staticDir ?? RENDERER_DIR,
      port: opts.port,
      ...(token === undefined ? {} : { token }),
    });
  } catch (error) {
    core.stop();
    lock.release();
    opts.forwarder?.stop();
    await demo?.close();
    throw new CliError(
      `cannot listen on 127.0.0.1:${opts.port}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    bridge,
    core,
    demo,
    close: async () => {
      await bridge.close();
      core.stop();
      lock.release();
      opts.forwarder?.stop();
      await demo?.close();
    },
  };
}

export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    {
      demo: { type: 'boolean' },
      port: { type: 'string' },
      kubeconfig: { type: 'string' },
      'stable-token': { type: 'boolean' },
      ...FORWARD_FLAGS,
    },
    'serve',
  );
  const targets = forwardTargets(flags.forward ?? [], flags, io.env);
  /** The served window's address without its session token: an ntfy click opens the alert's node there. */
  let clickBase: string | null = null;
  // Delivery problems go to the terminal; a delivery that worked is not worth a line.
  const forwarder =
    targets.length === 0
      ? null
      : new Forwarder(targets, {
          store: new FilePendingStore(path.join(defaultConfigDir(io.env), SERVE_PENDING_FILE)),
          clickBase: () => clickBase,
          recorder: {
            record: (e) => {
              if (e.outcome !== 'delivered')
                io.stderr.write(terminalLine(`forward ${e.target}: ${e.outcome} — ${e.detail ?? ''}`));
            },
          },
        });
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid port "${flags.port}"`);
  ensureWindowBuilt({ dir: RENDERER_DIR, root: packageRoot() }, (line) => io.stderr.write(`${line}\n`));
  const served = await startServe(
    {
      demo: flags.demo ?? false,
      port,
      kubeconfig: flags.kubeconfig,
      env: io.env,
      forwarder,
      stableToken: flags['stable-token'] === true,
    },
    (line) => io.stdout.write(`${line}\n`),
  );
  const opened = new URL(served.bridge.url);
  clickBase = `${opened.origin}${opened.pathname}`;
  io.stdout.write(
    `GPU Fleet is open at ${served.bridge.url}\n(only this machine can reach it; press Ctrl-C to stop)\n`,
  );
  const keepAlive = setInterval(() => undefined, 1 << 30);
  await io.stopSignal;
  clearInterval(keepAlive);
  await served.close();
  return 0;
}
