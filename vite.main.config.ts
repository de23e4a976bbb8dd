import { defineConfig } from 'vite';

// Forge's Vite plugin merges in the externals (electron, builtins) and the defines. The entry is named
// here so the bundle is `.vite/build/main.cjs` (package.json "main"), one file with no lazy chunks.
export default defineConfig({
  build: {
    lib: { entry: 'main/index.ts', fileName: () => 'main.cjs', formats: ['cjs'] },
    rollupOptions: { output: { codeSplitting: false } },
  },
});
