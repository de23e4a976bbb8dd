/**
 * `npm run bench:table`: rewrites the README's Performance table from bench/results/latest.json (between
 * the bench:table markers), then lets Biome format README.md as `npm run format` would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { renderBlock, replaceBlock } from './lib/readme-table.ts';
import { parseResults } from './lib/results.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function writeReadmeTable(root = ROOT): void {
  const results = parseResults(fs.readFileSync(path.join(root, 'bench/results/latest.json'), 'utf8'));
  const readme = path.join(root, 'README.md');
  fs.writeFileSync(readme, replaceBlock(fs.readFileSync(readme, 'utf8'), renderBlock(results)));
  const biome = spawnSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', 'README.md'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (biome.status !== 0) throw new Error('biome could not format README.md');
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  writeReadmeTable();
  process.stdout.write('README.md: Performance table regenerated from bench/results/latest.json\n');
}
