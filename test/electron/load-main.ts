/**
 * Loads the built main bundle (.vite/build/main.cjs) under plain Node with the Electron test double
 * answering every `require('electron')`, the way the packaged app would be loaded by Electron.
 */
import Module from 'node:module';
import path from 'node:path';
import { ElectronDouble } from './electron-double.ts';

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Loader };

export function loadMainBundle(
  prepare: (double: ElectronDouble) => void = () => undefined,
  bundle = path.resolve('.vite/build/main.cjs'),
): ElectronDouble {
  const double = new ElectronDouble();
  prepare(double);
  const electron = double.module();
  const original = moduleWithLoad._load;
  moduleWithLoad._load = function load(request, parent, isMain) {
    if (request === 'electron' || request === 'electron/main') return electron;
    return original.call(this, request, parent, isMain);
  };
  try {
    const require = Module.createRequire(import.meta.url);
    delete require.cache[bundle];
    require(bundle);
  } finally {
    moduleWithLoad._load = original;
  }
  return double;
}
