// Builds main, preload and renderer exactly as Electron Forge's Vite plugin would, by running the
// plugin's own build worker: Forge's CLI needs Node 22 and the Electron binary, CI has neither.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createJiti } from 'jiti';

const projectDir = process.cwd();
const forgeConfig = await createJiti(import.meta.url).import(`${projectDir}/forge.config.ts`, {
  default: true,
});
const pluginConfig = forgeConfig.plugins.find((p) => p.name === 'vite').config;
const worker = createRequire(import.meta.url)
  .resolve('@electron-forge/plugin-vite')
  .replace(/VitePlugin\.js$/, 'subprocess-worker.js');
// Optional: main | preload | renderer, or several with commas (`main,preload`: main and preload share
// .vite/build, which a build of either empties first).
const only = process.argv[2]?.split(',');

if (!only) rmSync('.vite', { recursive: true, force: true });
else
  for (const dir of new Set(only.map((t) => (t === 'renderer' ? 'renderer' : 'build'))))
    rmSync(`.vite/${dir}`, { recursive: true, force: true });
const jobs = [
  ...pluginConfig.renderer.map((_, i) => ['renderer', i, 'renderer']),
  ...pluginConfig.build.map((b, i) => ['build', i, b.target]),
].filter(([, , target]) => !only || only.includes(target));
for (const [kind, index, target] of jobs) {
  const r = spawnSync(process.execPath, [worker], {
    stdio: 'inherit',
    env: {
      ...process.env,
      FORGE_VITE_PROJECT_DIR: projectDir,
      FORGE_VITE_KIND: kind,
      FORGE_VITE_INDEX: String(index),
      FORGE_VITE_CONFIG: JSON.stringify(pluginConfig),
    },
  });
  if (r.status !== 0) {
    console.error(`build of ${target} failed`);
    process.exit(1);
  }
}
