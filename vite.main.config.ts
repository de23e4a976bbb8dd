import { defineConfig } from 'vite';

// Forge's Vite plugin merges in the externals (electron, builtins) and the defines. The entry is named
// here so the bundle is `.vite/build/main.cjs` (package.json "main"). The engine (and the demo's
// simulator) is not in it: it is the engine host's bundle (vite.host.config.ts), forked as a utility process.
export default defineConfig({
  build: {
    lib: { entry: 'main/index.ts', fileName: () => 'main.cjs', formats: ['cjs'] },
    rollupOptions: { output: { chunkFileNames: '[name]-[hash].cjs' } },
  },
});
