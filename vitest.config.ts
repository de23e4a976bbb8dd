import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';

// Projects: everything under plain Node, the Svelte renderer in jsdom, and end-to-end tests in Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['main/**/*.test.ts', 'common/**/*.test.ts', 'sim/**/*.test.ts', 'test/**/*.test.ts'],
          // The Chromium suites have a project of their own (they need the built renderer).
          exclude: ['**/node_modules/**', 'test/e2e/**'],
          // Builds dist/cli/ when stale: some tests spawn the built `gpu-fleet` command.
          globalSetup: ['scripts/vitest-tmp-root.mjs', 'scripts/vitest-build-cli.mjs'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Vitest runs one file at a time on two cores (availableParallelism − 1), yet most of this
          // project's time is waiting on loopback HTTPS, child processes and real watch timeouts (a run
          // used 46% of one core): two files at once overlap those waits. Three starved the heaviest
          // conformance test (limits.test.ts) past its timeout on a loaded machine.
          maxWorkers: 2,
        },
      },
      {
        plugins: [svelte(), svelteTesting()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.ts'],
          globalSetup: ['scripts/vitest-tmp-root.mjs'],
        },
      },
      {
        // Real Chromium against the built renderer; run after `npm run build`.
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: ['scripts/vitest-tmp-root.mjs'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
