/** Starts the built main bundle with the Electron double on a kubeconfig, with settings written beforehand. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultSettings, type Settings } from '../../main/settings/schema.ts';
import type { ElectronDouble } from './electron-double.ts';
import { loadMainBundle } from './load-main.ts';

export async function startDesktop(
  kubeconfig: string,
  settings: Partial<Settings> = {},
): Promise<ElectronDouble> {
  const previous = process.env.KUBECONFIG;
  process.env.KUBECONFIG = kubeconfig;
  try {
    const double = loadMainBundle((d) => {
      writeFileSync(
        path.join(d.userData, 'settings.json'),
        JSON.stringify({ ...defaultSettings(), ...settings }),
      );
    });
    // The app is up once its tray exists and the first inventory reached it.
    for (let i = 0; i < 200 && !double.trays[0]?.tooltip.includes('ready GPU nodes'); i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    return double;
  } finally {
    if (previous === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previous;
  }
}
