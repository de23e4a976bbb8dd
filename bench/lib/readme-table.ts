/**
 * The README's Performance table, generated from bench/results/latest.json and kept between two markers
 * (`npm run bench:table`, and `npm run bench` after a run). Biome then pads the Markdown table; the
 * comparison in the test ignores that padding.
 */
import { type BenchResults, groupOf } from './results.ts';
import { markdownTable } from './table.ts';

export const START =
  '<!-- bench:table:start — generated from bench/results/latest.json by `npm run bench:table` -->';
export const END = '<!-- bench:table:end -->';

const day = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const load = (xs: number[]) => (xs[0] ?? Number.NaN).toFixed(1);

/** The generated Markdown between the markers (markers excluded). */
export function renderBlock(results: BenchResults): string {
  const runs = results.runs.map((run) => {
    const groups = [...new Set(results.rows.filter((r) => r.run === run.at).map((r) => groupOf(r.id)))];
    return `- ${day(run.at)}: rows ${groups.join(', ')}; ${run.machine}; ${run.seconds.toFixed(0)} s; load average ${load(run.load.start)} → ${load(run.load.end)}`;
  });
  return [
    'Runs behind these figures (the machine is shared, so figures vary from run to run):',
    '',
    ...runs,
    '',
    markdownTable(results.rows),
    '',
    ...results.notes.map((n) => `- ${n.text}`),
  ].join('\n');
}

/** README text with the block between the markers replaced; throws when the markers are missing. */
export function replaceBlock(readme: string, block: string): string {
  const i = readme.indexOf(START);
  const j = readme.indexOf(END);
  if (i < 0 || j < i) throw new Error(`README.md has no "${START}" … "${END}" block.`);
  return `${readme.slice(0, i + START.length)}\n\n${block}\n\n${readme.slice(j)}`;
}

/** The block as it stands in the README (between the markers), or null. */
export function readBlock(readme: string): string | null {
  const i = readme.indexOf(START);
  const j = readme.indexOf(END);
  return i < 0 || j < i ? null : readme.slice(i + START.length, j);
}

/** A block reduced to what Biome's formatting leaves alone: trimmed lines and table cells, no rules. */
export function normalizeBlock(block: string): string[] {
  const out: string[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('|')) {
      const cells = line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      out.push(cells.join(' | '));
    } else out.push(line);
  }
  return out;
}
