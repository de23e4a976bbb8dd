/**
 * The desktop app as a flat list of setup steps (the electron/fiddle style). This folder and
 * main/index.ts are the only places that import 'electron'; the engine they host imports none of it.
 */
import path from 'node:path';
import { app, shell } from 'electron';
import { AppCore } from '../fleet/app-core.ts';
import { logEngine } from '../fleet/engine-log.ts';
import { Logger } from '../log/logger.ts';
import { RotatingFileSink } from '../log/rotating-file.ts';
import { openSettings } from '../settings/store.ts';
import { demoIfWanted } from '../shell/demo.ts';
import type { TrayAction } from '../shell/tray-model.ts';
import { handleAppProtocol, registerAppScheme } from './app-protocol.ts';
import { injectedClock } from './injected-clock.ts';
import { setupIpc } from './ipc.ts';
import { desktopTranslator, systemLanguages } from './locale.ts';
import { notify } from './notifier.ts';
import { denyPermissions, setupSecurity } from './security.ts';
import { openElectronSettings } from './settings-store.ts';
import { setupTray } from './tray.ts';
import { createWindowManager, rendererRoot } from './window.ts';

export async function runDesktop(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  setupSecurity(app);
  registerAppScheme();
  await app.whenReady();
  denyPermissions();
  handleAppProtocol(rendererRoot());

  const logFile = path.join(app.getPath('logs'), 'gpu-fleet.log');
  const logger = new Logger(new RotatingFileSink(logFile), 'info', 'shell');
  const settings = openElectronSettings();
  for (const n of settings.notices) logger.warn('settings', { notice: n.message });

  // No kubeconfig at all: the built-in demo clusters, so the app shows something useful at once. The
  // simulator is a dynamic import, loaded only then: a separate chunk, not linked into the main bundle.
  const demo =
    (
      await demoIfWanted(false, { env: process.env }, async () =>
        (await import('../../sim/demo.ts')).startDemoClusters(),
      )
    )?.demo ?? null;
  if (demo) logger.info('no kubeconfig found: started the demo cluster');
  const core = new AppCore({
    settings: demo ? openSettings({ cwd: demo.settingsDir }) : settings,
    kubeconfig: { explicitPath: demo?.kubeconfigPath ?? null, env: process.env },
    mode: 'electron',
    version: app.getVersion(),
    systemLanguages: systemLanguages(),
    demo: demo !== null,
    clock: injectedClock(),
  });
  logEngine(core.engine, logger);

  const windows = createWindowManager(
    settings.get('window'),
    (window) => settings.update({ window }),
    (message) => logger.warn('window', { message }),
  );
  const focusContext = (context: string, node: string | null) => {
    core.engine.focus(context);
    windows.show();
    windows.send('ui:focus', { context, node });
  };
  const applyLoginItem = () => app.setLoginItemSettings({ openAtLogin: core.settings.get('launchAtLogin') });
  const tr = () => desktopTranslator(core.settings.get('language'));
  setupIpc(core, windows, (channel) => {
    if (channel !== 'settings:update') return;
    applyLoginItem();
    // A new language shows in the tray at once, not at the next snapshot.
    tray.update(core.engine.snapshot());
  });

  // A tray click has nobody to await it: a failure is logged, never an unhandled rejection.
  const logged = (what: string, p: unknown) =>
    void Promise.resolve(p).catch((e: unknown) =>
      logger.warn(what, { error: e instanceof Error ? e.message : String(e) }),
    );
  const onTrayAction = (action: TrayAction) => {
    switch (action.kind) {
      case 'open-window':
        return windows.show();
      case 'focus':
        return focusContext(action.context, null);
      case 'pause':
        return logged('pausing alerts failed', core.handlers['alerts:snooze'](null, action.until));
      case 'resume':
        return logged('resuming alerts failed', core.handlers['alerts:resume'](null));
      case 'settings':
        windows.show();
        return windows.send('ui:show', { view: 'settings' });
      case 'open-log':
        return logged('opening the log failed', shell.openPath(logFile));
      case 'quit':
        return app.quit();
    }
  };
  const tray = setupTray(core.engine.snapshot(), onTrayAction, () => windows.show(), tr, core);
  core.engine.on((event) => {
    if (event.type === 'snapshot') tray.update(event.snapshot);
    if (event.type === 'alert') notify(event.alert, (f) => focusContext(f.context, f.node), tr());
  });

  app.on('second-instance', () => windows.show());
  // A tray app keeps running when its window closes.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    core.stop();
    if (demo) logged('closing the demo cluster failed', demo.close());
  });
  applyLoginItem();
  core.start();
  logger.info('started', { version: app.getVersion(), demo: demo !== null });
}
