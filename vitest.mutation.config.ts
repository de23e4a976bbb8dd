// Vitest for `npm run mutate` (stryker.config.mjs): the node project of vitest.config.ts alone. The
// Stryker runner has no project option, and the renderer and Chromium projects test no guard it mutates.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const node = base.test?.projects?.find(
  (p) => typeof p === 'object' && 'test' in p && p.test?.name === 'node',
);
if (typeof node !== 'object' || !('test' in node) || !node.test) {
  throw new Error('vitest.config.ts has no "node" project');
}

export default defineConfig({ test: { ...node.test, name: undefined } });
