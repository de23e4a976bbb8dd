/**
 * The desktop app as a flat list of setup steps (the electron/fiddle style). This folder and
 * preload/ are the only places that import 'electron' (main/index.ts only calls runDesktop); the engine
 * they host imports none of it.
 */
import path from 'node:path';
import { app, powerMonitor, safeStorage, shell } from 'electron';
import type { ShellSettings } from '../../common/host-protocol.ts';
import type { PushChannel } from '../../common/ipc.ts';
import type { TrayAction } from '../../common/tray-menu.ts';
import { systemClock } from '../kube/clock.ts';
import { injectedClock } from '../kube/injected-clock.ts';
import { Logger } from '../log/logger.ts';
import { RotatingFileSink } from '../log/rotating-file.ts';
import { handleAppProtocol, registerAppScheme } from './app-protocol.ts';
import { forkEngineHost } from './engine-host.ts';
import { EngineHostClient } from './engine-host-client.ts';
import type { EngineHostState } from './engine-line.ts';
import { ShellSecrets } from './forward-secrets.ts';
import { setupIpc } from './ipc.ts';
import { desktopTranslator, systemLanguages } from './locale.ts';
import { notify } from './notifier.ts';
import { SecretVault, VAULT_FILE } from './secret-vault.ts';
import { denyPermissions, setupSecurity } from './security.ts';
import { setupTray } from './tray.ts';
import { createWindowManager, rendererRoot } from './window.ts';

export async function runDesktop(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // The environment the app was started with: every start of the engine host gets the same one.
  const env = { ...process.env };
  setupSecurity(app);
  registerAppScheme();
  await app.whenReady();
  denyPermissions();
  handleAppProtocol(rendererRoot());

  const logFile = path.join(app.getPath('logs'), 'gpu-fleet.log');
  const sink = new RotatingFileSink(logFile);
  const logger = new Logger(sink, 'info', 'shell');
  const clock = injectedClock() ?? systemClock;

  // The engine (watchers, inventory, alerts, write-back, the settings file, the demo clusters when there is
  // no kubeconfig) runs in a utility process: this one keeps only the tray, notifications, window and IPC.
  const host = new EngineHostClient({
    spawn: () => forkEngineHost(env, (line) => logger.error('engine host stderr', { line })),
    init: {
      settingsDir: app.getPath('userData'),
      version: app.getVersion(),
      systemLanguages: systemLanguages(),
    },
    clock,
    log: (level, msg, fields) => logger[level](msg, fields),
  });
  host.on('hostLog', (line) => sink.write(`${line}\n`));
  let shellSettings: ShellSettings = { language: 'auto', launchAtLogin: false, window: null };
  const tr = () => desktopTranslator(shellSettings.language);

  const windows = createWindowManager(
    null,
    (window) => host.saveWindow(window),
    (message) => logger.warn('window', { message }),
    (open) => host.setWindowOpen(open),
  );
  host.on('push', (channel: PushChannel, json) => windows.relay(channel, json));
  // Forwarding secrets: kept here with safeStorage, handed to the host, never to the window or a log.
  const secrets = new ShellSecrets(
    new SecretVault(path.join(app.getPath('userData'), VAULT_FILE), safeStorage),
    host,
    (msg, fields) => logger.warn(msg, fields),
  );
  secrets.load();
  setupIpc(
    (channel, args) =>
      secrets.handles(channel) ? secrets.invoke(channel, args) : host.invoke(channel, args),
    windows,
  );

  // A tray click has nobody to await it: a failure is logged (and, for a context switch, shown). The
  // host's invoke never rejects; the catch is for this process's own handling of the reply.
  const logged = (what: string, p: Promise<unknown>) =>
    void p.catch((e: unknown) => logger.warn(what, { error: e instanceof Error ? e.message : String(e) }));
  const invoked = (what: string, channel: string, args: unknown[]) =>
    logged(
      what,
      host.invoke(channel, args).then((reply) => {
        if (reply.ok) return;
        logger.warn(what, { error: reply.error.message });
        if (channel === 'kubectl:use-context')
          windows.send('app:notice', { level: 'error', message: reply.error.message });
      }),
    );
  const focusContext = (context: string, node: string | null) => {
    invoked('focusing a context failed', 'fleet:focus', [context]);
    windows.show();
    windows.send('ui:focus', { context, node });
  };
  const onTrayAction = (action: TrayAction) => {
    switch (action.kind) {
      case 'open-window':
        return windows.show();
      case 'focus':
        return focusContext(action.context, null);
      case 'use-context':
        return invoked('switching the kubectl context failed', 'kubectl:use-context', [action.context]);
      case 'pause':
        return invoked('pausing alerts failed', 'alerts:snooze', [action.context ?? null, action.until]);
      case 'resume':
        return invoked('resuming alerts failed', 'alerts:resume', [action.context ?? null]);
      case 'settings':
        windows.show();
        return windows.send('ui:show', { view: 'settings' });
      case 'open-log':
        return logged('opening the log failed', shell.openPath(logFile));
      case 'quit':
        return app.quit();
    }
  };
  const tray = setupTray(onTrayAction, () => windows.show(), tr);
  host.on('tray', (model) => tray.update({ model }));
  host.on('notify', (notice, context) => notify(notice, context, (f) => focusContext(f.context, f.node)));
  host.on('shell', (settings) => {
    shellSettings = settings;
    windows.restoreBounds(settings.window);
    app.setLoginItemSettings({ openAtLogin: settings.launchAtLogin });
    // The engine line's language (the host sends the rest of the tray in the new one).
    tray.update({});
  });
  let last: EngineHostState = host.state;
  host.on('state', (state) => {
    tray.update({ engine: state });
    // The window hears of a crash, and of the recovery (the host's first push then resyncs it).
    const words = tr();
    if (state.kind === 'restarting' && last.kind !== 'restarting')
      windows.send('app:notice', { level: 'error', message: words.t('tray.engineStopped') });
    if (state.kind === 'running' && last.kind !== 'running' && last.kind !== 'stopped' && last.restarts > 0)
      windows.send('app:notice', { level: 'info', message: words.t('tray.engineBack') });
    last = state;
  });

  app.on('second-instance', () => windows.show());
  // A tray app keeps running when its window closes.
  app.on('window-all-closed', () => undefined);
  let stopped = false;
  // A quit held back while the system shuts down reads, on macOS, as the app refusing to quit: the
  // shutdown is cancelled. Then the host is asked to stop and the quit goes on (it saves every 30 s too).
  let systemShutdown = false;
  powerMonitor.on('shutdown', () => {
    systemShutdown = true;
  });
  app.on('before-quit', (event?: { preventDefault(): void }) => {
    if (stopped) return;
    stopped = true;
    const stopping = host
      .stop()
      .catch((e: unknown) => logger.warn('stopping the engine failed', { error: String(e) }));
    if (systemShutdown) return;
    // The host saves the last inventories before it exits: quit once it has (or its grace ran out).
    event?.preventDefault();
    stopping.finally(() => app.quit()).catch(() => undefined);
  });
  host.start();
  logger.info('started', { version: app.getVersion() });
}
