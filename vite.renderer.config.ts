import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const projectDir = fileURLToPath(new URL('.', import.meta.url));

// The renderer lives in renderer/ (index.html there); its bundle goes where Forge expects it.
export default defineConfig({
  root: `${projectDir}renderer`,
  plugins: [svelte()],
  build: { outDir: `${projectDir}.vite/renderer/main_window`, emptyOutDir: true },
});
