/**
 * bench/results/latest.json: the rows of the last measurement of each, every row tagged with the run that
 * measured it (when, on what machine, under what load). `npm run bench -- --only 3,6` replaces rows 3 and
 * 6 (and their notes) and keeps every other row as it was.
 */
import type { Row } from './table.ts';

export interface BenchRun {
  at: string;
  machine: string;
  /** The groups this run measured ("3", "6"…). */
  groups: string[];
  seconds: number;
  /** os.loadavg() (1, 5, 15 min) when the run started and when it ended; 2 cores shared = noisy figures. */
  load: { start: number[]; end: number[] };
  /** The commit measured and whether main/ or common/ had uncommitted changes (null: not recorded). */
  commit: string | null;
  dirty: boolean | null;
}

export interface ResultRow extends Row {
  /** `at` of the run that measured this row. */
  run: string;
}

export interface BenchNote {
  group: string;
  text: string;
}

export interface BenchResults {
  at: string;
  runs: BenchRun[];
  rows: ResultRow[];
  notes: BenchNote[];
}

/** The group of a row id: "6b" → "6", "1, 4" (a failed section) → "1". */
export function groupOf(id: string): string {
  return /^\d+/.exec(id)?.[0] ?? id;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNums = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => typeof n === 'number');

function isRow(v: unknown): v is ResultRow {
  return (
    isObj(v) &&
    ['id', 'measure', 'ours', 'baseline', 'target', 'run'].every((k) => isStr(v[k])) &&
    (v.met === null || typeof v.met === 'boolean') &&
    isObj(v.raw)
  );
}

function isRun(v: unknown): v is BenchRun {
  return (
    isObj(v) &&
    isStr(v.at) &&
    isStr(v.machine) &&
    Array.isArray(v.groups) &&
    v.groups.every(isStr) &&
    typeof v.seconds === 'number' &&
    isObj(v.load) &&
    isNums(v.load.start) &&
    isNums(v.load.end) &&
    (v.commit === undefined || v.commit === null || (isStr(v.commit) && /^[0-9a-f]{40}$/.test(v.commit))) &&
    (v.dirty === undefined || v.dirty === null || typeof v.dirty === 'boolean')
  );
}

/** Runs written before the commit was recorded read as "not recorded". */
const withProvenance = (r: BenchRun): BenchRun => ({
  ...r,
  commit: r.commit ?? null,
  dirty: r.dirty ?? null,
});

/** Parses latest.json; throws one sentence naming what is wrong. */
export function parseResults(text: string): BenchResults {
  const v: unknown = JSON.parse(text);
  if (!isObj(v) || !isStr(v.at)) throw new Error('bench/results/latest.json has no "at".');
  if (!Array.isArray(v.runs) || !v.runs.every(isRun))
    throw new Error('bench/results/latest.json: "runs" is not a list of runs.');
  if (!Array.isArray(v.rows) || !v.rows.every(isRow))
    throw new Error('bench/results/latest.json: "rows" is not a list of result rows.');
  const notes = Array.isArray(v.notes) ? v.notes : [];
  if (!notes.every((n) => isObj(n) && isStr(n.group) && isStr(n.text)))
    throw new Error('bench/results/latest.json: "notes" is not a list of {group, text}.');
  return { at: v.at, runs: v.runs.map(withProvenance), rows: v.rows, notes: notes as BenchNote[] };
}

const byId = (x: Row, y: Row) => x.id.localeCompare(y.id, 'en', { numeric: true });

/** The previous results with the groups of `run` replaced by its rows and notes; runs no row cites dropped. */
export function mergeResults(
  previous: BenchResults | null,
  run: BenchRun,
  rows: readonly Row[],
  notes: readonly BenchNote[],
): BenchResults {
  const measured = new Set(run.groups);
  const kept = (previous?.rows ?? []).filter((r) => !measured.has(groupOf(r.id)));
  const merged = [...kept, ...rows.map((r) => ({ ...r, run: run.at }))].sort(byId);
  const cited = new Set(merged.map((r) => r.run));
  const runs = [...(previous?.runs ?? []).filter((r) => r.at !== run.at), run].filter((r) => cited.has(r.at));
  const keptNotes = (previous?.notes ?? []).filter((n) => !measured.has(n.group));
  const allNotes = [...keptNotes, ...notes].sort((a, b) =>
    a.group.localeCompare(b.group, 'en', { numeric: true }),
  );
  return { at: run.at, runs, rows: merged, notes: allNotes };
}
