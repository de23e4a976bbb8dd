/**
 * The Performance table of docs/performance.md, generated from bench/results/latest.json and kept between
 * two markers (`npm run bench:table`, and `npm run bench` after a run). Each run names the commit it
 * measured; rows whose run measured older code (main/ or common/ changed since, a dirty tree, or no commit
 * recorded) carry a † so a figure never passes for one of the code as it is. Biome then pads the Markdown
 * table; the comparison in the test ignores that padding.
 */
import type { Freshness } from './provenance.ts';
import { type BenchResults, type BenchRun, groupOf } from './results.ts';
import { markdownTable } from './table.ts';

export const START =
  '<!-- bench:table:start — generated from bench/results/latest.json by `npm run bench:table` -->';
export const END = '<!-- bench:table:end -->';
/** Marks a row measured on other code than the commit the table was generated at. */
export const OLDER = '†';

const day = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const load = (xs: number[]) => (xs[0] ?? Number.NaN).toFixed(1);
const short = (commit: string) => commit.slice(0, 10);

function measured(run: BenchRun, fresh: Freshness): string {
  if (run.commit === null) return 'commit not recorded';
  const at = `commit ${short(run.commit)}${run.dirty ? ' with uncommitted changes' : ''}`;
  return fresh === 'changed-since' ? `${at}; main/ or common/ changed since` : at;
}

/** The generated Markdown between the markers (markers excluded). */
export function renderBlock(
  results: BenchResults,
  freshness: (run: BenchRun) => Freshness,
  generatedAt: string | null,
): string {
  const fresh = new Map(results.runs.map((r) => [r.at, freshness(r)]));
  const runs = results.runs.map((run) => {
    const groups = [...new Set(results.rows.filter((r) => r.run === run.at).map((r) => groupOf(r.id)))];
    return `- ${day(run.at)}: rows ${groups.join(', ')}; ${run.machine}; ${run.seconds.toFixed(0)} s; load average ${load(run.load.start)} → ${load(run.load.end)}; ${measured(run, fresh.get(run.at) ?? 'not-recorded')}`;
  });
  const rows = results.rows.map((r) =>
    fresh.get(r.run) === 'current' ? r : { ...r, id: `${r.id} ${OLDER}` },
  );
  const older = rows.some((r) => r.id.endsWith(OLDER));
  return [
    'Runs behind these figures (the machine is shared, so figures vary from run to run):',
    '',
    ...runs,
    '',
    markdownTable(rows),
    '',
    ...(older
      ? [
          `${OLDER} Measured on other code than ${generatedAt ? `commit ${short(generatedAt)}, the one this table was generated at` : 'the tree this table was generated from'} (main/ or common/ changed since, the tree had uncommitted changes, or the run recorded no commit): re-measure with \`npm run bench -- --only N\`.`,
          '',
        ]
      : []),
    ...results.notes.map((n) => `- ${n.text}`),
  ].join('\n');
}

/** Page text with the block between the markers replaced; throws when the markers are missing. */
export function replaceBlock(page: string, block: string): string {
  const i = page.indexOf(START);
  const j = page.indexOf(END);
  if (i < 0 || j < i) throw new Error(`docs/performance.md has no "${START}" … "${END}" block.`);
  return `${page.slice(0, i + START.length)}\n\n${block}\n\n${page.slice(j)}`;
}

/** The block as it stands on the page (between the markers), or null. */
export function readBlock(page: string): string | null {
  const i = page.indexOf(START);
  const j = page.indexOf(END);
  return i < 0 || j < i ? null : page.slice(i + START.length, j);
}

/**
 * A block reduced to what Biome's formatting leaves alone: trimmed lines and table cells, no rules. With
 * `ignoreFreshness`, the † marks and the run lines' commit clauses (which move with every later commit to
 * main/ or common/) are dropped too, so the figures can be checked without regenerating on each commit.
 */
export function normalizeBlock(block: string, ignoreFreshness = false): string[] {
  const out: string[] = [];
  for (const raw of block.split('\n')) {
    let line = raw.trim();
    if (line === '') continue;
    if (ignoreFreshness) {
      if (line.startsWith(OLDER)) continue;
      line = line.replace(
        /; (commit not recorded|commit [0-9a-f]{10}[^;]*(; main\/ or common\/ changed since)?)$/,
        '',
      );
    }
    if (line.startsWith('|')) {
      const cells = line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      if (ignoreFreshness && cells[0]) cells[0] = cells[0].replace(` ${OLDER}`, '');
      out.push(cells.join(' | '));
    } else out.push(line);
  }
  return out;
}
