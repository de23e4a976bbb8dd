/**
 * `npm run bench:table`: rewrites docs/performance.md's table from bench/results/latest.json (between the
 * bench:table markers), marking the rows measured on older code, and the soak sentence from
 * bench/results/soak.json; then lets Biome format the page as `npm run format` would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { renderBlock, replaceBlock } from './lib/docs-table.ts';
import { freshnessAt, provenance } from './lib/provenance.ts';
import { parseResults } from './lib/results.ts';
import { readSoakSummary, renderSoak, replaceSoak } from './lib/soak-summary.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const PERFORMANCE_PAGE = 'docs/performance.md';

export function writeDocsTable(root = ROOT): void {
  const results = parseResults(fs.readFileSync(path.join(root, 'bench/results/latest.json'), 'utf8'));
  const page = path.join(root, PERFORMANCE_PAGE);
  const fresh = freshnessAt(root);
  const soak = readSoakSummary(root);
  const text = replaceBlock(
    fs.readFileSync(page, 'utf8'),
    renderBlock(results, fresh, provenance(root).commit),
  );
  fs.writeFileSync(page, replaceSoak(text, renderSoak(soak, soak ? fresh(soak) : 'not-recorded')));
  const biome = spawnSync(
    path.join(root, 'node_modules/.bin/biome'),
    ['format', '--write', PERFORMANCE_PAGE],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (biome.status !== 0) throw new Error(`biome could not format ${PERFORMANCE_PAGE}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  writeDocsTable();
  process.stdout.write(`${PERFORMANCE_PAGE}: table regenerated from bench/results/latest.json\n`);
}
