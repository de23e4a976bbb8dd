/**
 * The engine host: the app core (watchers, inventory, alerts, write-back, settings, the demo clusters when
 * there is no kubeconfig) behind the shell protocol of common/host-protocol.ts. In the desktop app it runs
 * in an Electron utility process (entry.ts), so a 5,000-node sync never stalls the process that owns the
 * tray and the window's IPC. It does the heavy work for the shell too: it answers with JSON text, encodes
 * every window push once, and makes the tray's small summary itself.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Value } from '@sinclair/typebox/value';
import type { Alert } from '../../common/alerts.ts';
import type { FleetSnapshot } from '../../common/fleet.ts';
import type { ForwardSecretInput } from '../../common/forwarding.ts';
import {
  HOST_LOG_LINE_MAX,
  type HostInit,
  type HostMessage,
  SHELL_MESSAGE_SCHEMA,
  type ShellMessage,
} from '../../common/host-protocol.ts';
import { effectiveLocale } from '../../common/i18n/locales.ts';
import { type Translator, translator } from '../../common/i18n/translator.ts';
import { desktopNotice } from '../../common/notification.ts';
import { type Demo, demoIfWanted } from '../demo/demo.ts';
import { AppCore } from '../fleet/app-core.ts';
import { logEngine } from '../fleet/engine-log.ts';
import { answerInvoke } from '../fleet/host.ts';
import { DesktopForwarding } from '../forward/desktop-forwarding.ts';
import { FilePendingStore, PENDING_FILE } from '../forward/pending-store.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import { Logger } from '../log/logger.ts';
import { type OpenSettingsOptions, openSettings, type SettingsStore } from '../settings/store.ts';
import { trayFleet } from './tray/tray-fleet.ts';
import { buildTrayModel } from './tray/tray-model.ts';

/** The host's end of the channel to the shell (Electron's parentPort, or a test's pair). */
export interface HostPort {
  post(message: HostMessage): void;
  onMessage(listener: (message: unknown) => void): void;
}

export interface EngineHostOptions {
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  /** Ends the process (the entry passes process.exit). */
  exit: (code: number) => void;
  /** What writes the settings file: the entry passes electron-store's backend; conf when absent. */
  settingsBackend?: OpenSettingsOptions['createBackend'];
}

interface Running {
  core: AppCore;
  settings: SettingsStore;
  demo: Demo | null;
  forwarding: DesktopForwarding;
  /** The user's language now: the setting, else the OS's preferred languages. */
  tr: () => Translator;
}

export function serveEngineHost(port: HostPort, options: EngineHostOptions): void {
  const clock = options.clock ?? systemClock;
  const logger = new Logger(
    // The shell writes these lines to its log file; one line each, never a newline inside.
    { write: (line) => port.post({ type: 'log', line: line.trimEnd().slice(0, HOST_LOG_LINE_MAX) }) },
    'info',
    'engine-host',
    () => clock.now(),
  );
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let running: Running | null = null;
  let starting = false;
  let stopping = false;
  let lastTray = '';
  /** A tray app mostly runs with no window: then no window push is encoded or sent at all. */
  let windowOpen = false;
  /** The forwarding secrets from the shell, kept here (memory only) until the engine runs. */
  let secrets: Record<string, ForwardSecretInput> | null = null;

  /** The tray, worded here: the shell turns it into the OS menu and words nothing of the fleet. */
  const sendTray = ({ core, tr }: Running, snapshot: FleetSnapshot, force = false) => {
    const model = buildTrayModel(trayFleet(snapshot), tr(), core.kubectlContexts());
    // The tray changes far less often than the snapshot: only a changed model crosses.
    const text = JSON.stringify(model);
    if (text === lastTray && !force) return;
    lastTray = text;
    port.post({ type: 'tray', model });
  };
  const sendShell = ({ core, settings }: Running) =>
    port.post({
      type: 'shell',
      settings: {
        language: core.settings.get('language'),
        launchAtLogin: core.settings.get('launchAtLogin'),
        window: settings.get('window'),
      },
    });

  const backend = options.settingsBackend;
  const open = (cwd: string) => openSettings({ cwd, ...(backend ? { createBackend: backend } : {}) });

  const start = async (init: HostInit): Promise<Running> => {
    const settings = open(init.settingsDir);
    for (const n of settings.notices) logger.warn('settings', { notice: n.message });
    // No kubeconfig at all: the built-in demo clusters. The simulator is a dynamic import, a chunk of its
    // own, loaded only then.
    const demo =
      (
        await demoIfWanted(false, { env: options.env }, async () =>
          (await import('../../sim/demo.ts')).startDemoClusters(),
        )
      )?.demo ?? null;
    if (demo) logger.info('no kubeconfig found: started the demo cluster');
    // The user's targets (the demo's settings are not the user's); their secrets come from the shell.
    const forwarding = new DesktopForwarding({
      read: () => settings.get('forwarding'),
      write: (forwarding) => settings.update({ forwarding }),
      store: new FilePendingStore(path.join(init.settingsDir, PENDING_FILE), clock),
      forwarder: { clock },
    });
    // The sentences name a target's id and host only (outcome.ts), never its URL path or secret.
    forwarding.addRecorder({
      record: (e) => {
        if (e.outcome !== 'delivered')
          logger.warn('forwarding', { target: e.target, outcome: e.outcome, detail: e.detail });
      },
    });
    const core = new AppCore({
      settings: demo ? open(demo.settingsDir) : settings,
      kubeconfig: { explicitPath: demo?.kubeconfigPath ?? null, env: options.env },
      mode: 'electron',
      version: init.version,
      systemLanguages: init.systemLanguages,
      demo: demo !== null,
      clock,
      engine: { debug: (context, line) => logger.debug('telemetry', { context, line }) },
      // The demo's clusters are not the user's: their timeline lives in the demo's own folder.
      timelineDir: demo ? demo.settingsDir : init.settingsDir,
      forwarder: forwarding,
    });
    if (secrets) forwarding.setSecrets(secrets);
    logEngine(core.engine, logger);
    const r: Running = {
      core,
      settings,
      demo,
      forwarding,
      tr: () => translator(effectiveLocale(core.settings.get('language'), init.systemLanguages)),
    };
    core.onPush((channel, payload) => {
      if (windowOpen) port.post({ type: 'push', channel, json: JSON.stringify(payload) });
      if (channel === 'alerts:notify') {
        const alert = payload as Alert;
        port.post({ type: 'notify', notice: desktopNotice(alert, r.tr()), context: alert.context });
      }
      if (channel === 'kubectl:contexts') sendTray(r, core.engine.snapshot());
    });
    core.engine.on((event) => {
      if (event.type === 'snapshot') sendTray(r, event.snapshot);
    });
    core.start();
    return r;
  };

  const invoke = async (r: Running, id: number, channel: string, args: unknown[]): Promise<void> => {
    const reply = await answerInvoke(r.core.handlers, channel, args);
    // Before the reply: whoever awaited the change finds the shell already acting on it (the tray's language).
    if (reply.ok && channel === 'settings:update') {
      sendShell(r);
      sendTray(r, r.core.engine.snapshot());
    }
    port.post({ type: 'reply', id, reply });
  };

  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Still starting: the start's continuation stops what it started.
    if (starting && !running) return;
    const r = running;
    running = null;
    let code = 0;
    try {
      r?.core.stop();
      r?.forwarding.stop();
      await r?.demo?.close();
    } catch (error) {
      logger.error('stopping the engine failed', { error: String(error) });
      code = 1;
    }
    options.exit(code);
  };

  const handle = (message: ShellMessage): void => {
    switch (message.type) {
      case 'init':
        if (running || starting) return;
        starting = true;
        windowOpen = message.windowOpen;
        start(message).then(
          (r) => {
            running = r;
            if (stopping) {
              stopping = false;
              stop().catch(() => options.exit(1));
              return;
            }
            sendShell(r);
            sendTray(r, r.core.engine.snapshot(), true);
            port.post({ type: 'ready' });
          },
          (error: unknown) => {
            // Nothing runs without the core: say why, and let the shell restart the host.
            logger.error('the engine could not start', { error: String(error) });
            options.exit(1);
          },
        );
        return;
      case 'invoke': {
        const r = running;
        if (!r) {
          port.post({
            type: 'reply',
            id: message.id,
            reply: {
              ok: false,
              error: { kind: 'disconnected', message: 'The GPU Fleet engine is starting.' },
            },
          });
          return;
        }
        invoke(r, message.id, message.channel, message.args).catch((error: unknown) =>
          logger.error('answering an invoke failed', { channel: message.channel, error: String(error) }),
        );
        return;
      }
      case 'save-window':
        try {
          running?.settings.update({ window: message.window });
        } catch (error) {
          logger.warn('the window position could not be saved', { error: String(error) });
        }
        return;
      case 'window':
        windowOpen = message.open;
        if (!message.open) running?.core.timeline?.windowClosed();
        return;
      case 'stats': {
        const max = loop.max / 1e6;
        loop.reset();
        port.post({
          type: 'stats',
          id: message.id,
          stats: { loopDelayMaxMs: Number.isFinite(max) ? max : 0, rssBytes: process.memoryUsage.rss() },
        });
        return;
      }
      case 'secrets':
        secrets = message.secrets;
        running?.forwarding.setSecrets(message.secrets);
        return;
      case 'stop':
        stop().catch(() => options.exit(1));
        return;
    }
  };

  port.onMessage((raw) => {
    if (!Value.Check(SHELL_MESSAGE_SCHEMA, raw)) {
      logger.warn('dropped a message from the shell that is not of the protocol');
      return;
    }
    handle(raw as ShellMessage);
  });
  port.post({ type: 'listening' });
}
