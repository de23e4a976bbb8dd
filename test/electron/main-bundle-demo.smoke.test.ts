/**
 * Smoke test: with no kubeconfig at all, the built main bundle starts the demo clusters from their lazy
 * chunk (sim/demo.ts is a dynamic import of the engine host, loaded neither with main.cjs nor at the
 * host's start), and quitting the app closes them. The simulator's TLS packages are bundled into the demo's lazy chunks only: neither main.cjs
 * nor what the engine host loads at its start carries them.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closure } from '../architecture/bundle-closure.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let double: ElectronDouble | null = null;
afterAll(() => double?.app.quit());

const build = (f: string) => readFileSync(path.join('.vite/build', f), 'utf8');
const CHUNKS = readdirSync('.vite/build').filter((f) => f.endsWith('.cjs'));
// A lazy load is `Promise.resolve().then(()=>require("./x.cjs"))`; any other require of a chunk is at once.
const atOnce = (f: string) =>
  [...build(f).matchAll(/(\.then\(\(\)=>)?require\("\.\/([^"]+\.cjs)"\)/g)].flatMap((m) =>
    m[1] === undefined ? [m[2] ?? ''] : [],
  );
/** The chunks holding `words`: what main.cjs or the engine host loads at its start, and all of them. */
function holding(words: readonly string[]): { atStart: string[]; anywhere: string[] } {
  const has = (f: string) => words.some((w) => build(f).includes(w));
  const atStart = ['main.cjs', 'engine-host.cjs'].flatMap((entry) => [...closure(entry, atOnce)].filter(has));
  return { atStart, anywhere: CHUNKS.filter(has) };
}

describe('main bundle without a kubeconfig', () => {
  it("loads the simulator neither in main.cjs nor at the engine host's start; a lazy chunk holds it", () => {
    // A message only the simulator's fault injection writes (sim/server.ts).
    const sim = holding(['simulated failure (HTTP']);
    expect(sim.atStart).toEqual([]);
    expect(sim.anywhere.length).toBeGreaterThan(0);
  });

  it("keeps the simulator's TLS packages in the demo's lazy chunks", () => {
    // Names from @peculiar/x509 and reflect-metadata that survive minification (API names).
    const tls = holding(['X509CertificateGenerator', 'getOwnMetadataKeys']);
    expect(tls.atStart).toEqual([]);
    expect(tls.anywhere.length).toBeGreaterThan(0);
  });

  it('starts the demo clusters and shows them in the tray', async () => {
    const missing = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-nokube-')), 'no-such-config');
    double = await startDesktop(missing);
    expect(double.trays[0]?.tooltip).toContain('ready GPU nodes');
  });
});
