/**
 * Builds a baseline script (bench/baselines/*.ts) to plain JavaScript with the project's Vite, like the
 * CLI (vite.cli.config.ts), so a baseline process and `gpu-fleet` start the same way: plain Node, no
 * TypeScript loader. Written under node_modules/.cache so its imports of dependencies resolve.
 */
import path from 'node:path';
import { build } from 'vite';
import cliConfig from '../../vite.cli.config.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export async function buildBaseline(entry: string): Promise<string> {
  const name = path.basename(entry, '.ts');
  const outDir = path.join(ROOT, 'node_modules/.cache/gpu-fleet-bench', name);
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    publicDir: false,
    envDir: false,
    build: {
      ssr: path.join(ROOT, entry),
      outDir,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      rollupOptions: {
        external: cliConfig.build?.rollupOptions?.external,
        output: { format: 'es', entryFileNames: `${name}.mjs` },
      },
    },
  });
  return path.join(outDir, `${name}.mjs`);
}
