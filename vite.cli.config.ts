import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// `npm run build:cli`: the `gpu-fleet` command as plain ESM JavaScript in dist/cli/, so bin/gpu-fleet.mjs
// needs no TypeScript loader at run time. Built in SSR (library) mode for Node: the runtime
// dependencies stay imports of node_modules, our own code (main/, common/, sim/) is bundled. Every
// command is a dynamic import in main/cli/commands.ts, so each becomes a chunk loaded only when that
// command runs (`--help` loads none of them; only `sim` and the demo load the simulator).
const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
].map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/.*)?$`));

export default defineConfig({
  // No public/ copy, no .env loading: this is a Node program.
  publicDir: false,
  envDir: false,
  build: {
    ssr: 'main/cli/entry.ts',
    outDir: 'dist/cli',
    emptyOutDir: true,
    target: 'node22',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      external,
      output: {
        format: 'es',
        entryFileNames: 'entry.js',
        chunkFileNames: '[name]-[hash].js',
      },
    },
  },
});
