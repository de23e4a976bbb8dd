import { defineConfig } from 'vite';

// The sandboxed preload must be one self-contained CJS file named `.vite/build/preload.cjs`
// (the window's webPreferences point there), not Forge's default `[name].cjs` = `index.cjs`.
export default defineConfig({
  build: { rollupOptions: { output: { entryFileNames: 'preload.cjs' } } },
});
