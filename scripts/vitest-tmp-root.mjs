// Vitest globalSetup of every project: one temporary folder for the whole run, removed at its end. Tests
// (and the processes they spawn: the CLI, the simulator, Chromium) make their own temporary folders with
// os.tmpdir(), which reads TMPDIR (TMP/TEMP on Windows); pointing those here before the workers start
// means a folder a test forgets to remove, or one a killed child leaves behind, does not outlive the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NAMES = ['TMPDIR', 'TMP', 'TEMP'];

export default function setup() {
  const root = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-run-'));
  const saved = NAMES.map((n) => [n, process.env[n]]);
  for (const n of NAMES) process.env[n] = root;
  return () => {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
    rmSync(root, { recursive: true, force: true });
  };
}
