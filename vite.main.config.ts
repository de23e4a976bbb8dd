import { defineConfig } from 'vite';

// Forge's Vite plugin merges in the externals (electron, builtins) and the defines. The entry is named
// here so the bundle is `.vite/build/main.cjs` (package.json "main"). Dynamic imports become lazy chunks
// beside it: the demo's simulator (sim/demo.ts, imported by the desktop shell only when no kubeconfig
// exists) is one, so the app's main bundle does not carry the simulator.
export default defineConfig({
  build: {
    lib: { entry: 'main/index.ts', fileName: () => 'main.cjs', formats: ['cjs'] },
    rollupOptions: { output: { chunkFileNames: '[name]-[hash].cjs' } },
  },
});
