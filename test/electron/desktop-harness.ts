/**
 * Starts the built main bundle with the Electron double on a kubeconfig, with settings written beforehand.
 * With `clock`, the app runs on that ManualClock (main/kube/injected-clock.ts), and the wait for the
 * first inventory moves it by `stepMs` per real poll so the app's throttles can run.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultSettings, type Settings } from '../../common/settings.ts';
import { INJECTED_CLOCK } from '../../main/kube/injected-clock.ts';
import type { ManualClock } from '../helpers/manual-clock.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { ElectronDouble } from './electron-double.ts';
import { loadMainBundle } from './load-main.ts';

export interface DesktopClock {
  clock: ManualClock;
  /** Virtual ms per real poll while waiting for the app. */
  stepMs: number;
}

export async function startDesktop(
  kubeconfig: string,
  settings: Partial<Settings> = {},
  time?: DesktopClock,
  /** The OS's preferred languages (app.getPreferredSystemLanguages); the double says en-US otherwise. */
  osLanguages?: string[],
  /** Changes the double further before the bundle loads (after the settings file is written). */
  prepare?: (double: ElectronDouble) => void,
): Promise<ElectronDouble> {
  const previous = process.env.KUBECONFIG;
  process.env.KUBECONFIG = kubeconfig;
  if (time) Reflect.set(globalThis, INJECTED_CLOCK, time.clock);
  try {
    const double = loadMainBundle((d) => {
      if (time) d.clock = time.clock;
      if (osLanguages) d.app.getPreferredSystemLanguages = () => osLanguages;
      writeFileSync(
        path.join(d.userData, 'settings.json'),
        JSON.stringify({ ...defaultSettings(), ...settings }),
      );
      prepare?.(d);
    });
    // The app is up once its tray exists and the first inventory reached it ("3/4", in any language).
    await pollUntil(() => /\d\/\d/.test(double.trays[0]?.tooltip ?? ''), 'the first tray', {
      everyMs: 25,
      ...(time ? { each: () => time.clock.advance(time.stepMs) } : {}),
    });
    return double;
  } finally {
    Reflect.deleteProperty(globalThis, INJECTED_CLOCK);
    if (previous === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previous;
  }
}
