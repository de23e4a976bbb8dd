import { defineConfig } from 'vite';

// The engine host's bundle, `.vite/build/engine-host.cjs`, beside the main bundle that forks it as a
// utility process (main/electron/engine-host.ts). Forge's Vite plugin merges in the externals and defines
// as for main. The demo's simulator (sim/demo.ts, imported only when no kubeconfig exists) is a lazy chunk.
export default defineConfig({
  build: {
    lib: { entry: 'main/engine-host/entry.ts', fileName: () => 'engine-host.cjs', formats: ['cjs'] },
    rollupOptions: { output: { chunkFileNames: 'host-[name]-[hash].cjs' } },
  },
});
