/**
 * bench/results/soak.json: the last soak's verdict in a few fields (the full run, with every sample, stays
 * in the ignored soak-latest.json), and the sentence of docs/performance.md generated from it, so the page
 * never quotes a soak older than the one recorded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Freshness, type Provenance, provenance } from './provenance.ts';

export const SOAK_FILE = 'bench/results/soak.json';
export const SOAK_START =
  '<!-- soak:start — generated from bench/results/soak.json by `npm run bench:table` -->';
export const SOAK_END = '<!-- soak:end -->';

export interface SoakSummary extends Provenance {
  at: string;
  minutes: number;
  alertsSeen: number;
  alertsExpected: number;
  mismatches: number;
  heapSlopeMbPerMin: number;
  /** The machine's 1-minute load average at the start and the end (other work sharing its cores). */
  loadAvg?: [number, number];
  /** Cores of the machine. */
  cores?: number;
}

/** What a soak notes before it starts: the code it measures (a commit made during a long soak is not it). */
export interface SoakStart extends Provenance {
  /** The machine's 1-minute load average at the start. */
  load: number;
}

export function soakStart(root: string): SoakStart {
  return { ...provenance(root), load: os.loadavg()[0] ?? 0 };
}

/** The summary of a finished soak: commit and dirtiness as they were at its start, the load at both ends. */
export function soakSummary(
  start: SoakStart,
  figures: Omit<SoakSummary, keyof Provenance | 'loadAvg' | 'cores'>,
): SoakSummary {
  return {
    ...figures,
    commit: start.commit,
    dirty: start.dirty,
    loadAvg: [start.load, os.loadavg()[0] ?? 0],
    cores: os.availableParallelism(),
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function parseSoakSummary(text: string): SoakSummary {
  const v: unknown = JSON.parse(text);
  if (
    !isObj(v) ||
    typeof v.at !== 'string' ||
    !['minutes', 'alertsSeen', 'alertsExpected', 'mismatches', 'heapSlopeMbPerMin'].every((k) =>
      isNum(v[k]),
    ) ||
    !(v.commit === null || (typeof v.commit === 'string' && /^[0-9a-f]{40}$/.test(v.commit))) ||
    !(v.dirty === null || typeof v.dirty === 'boolean') ||
    !(
      v.loadAvg === undefined ||
      (Array.isArray(v.loadAvg) && v.loadAvg.length === 2 && v.loadAvg.every(isNum))
    ) ||
    !(v.cores === undefined || isNum(v.cores))
  )
    throw new Error(`${SOAK_FILE} is not a soak summary.`);
  return v as unknown as SoakSummary;
}

export function readSoakSummary(root: string): SoakSummary | null {
  const file = path.join(root, SOAK_FILE);
  return fs.existsSync(file) ? parseSoakSummary(fs.readFileSync(file, 'utf8')) : null;
}

/** The page's soak sentence. */
export function renderSoak(s: SoakSummary | null, fresh: Freshness): string {
  if (s === null) return 'No soak result is recorded: run `npm run soak -- --minutes 10` to record one.';
  const verdict =
    s.mismatches === 0
      ? `${s.alertsSeen} alerts, all matched the ground truth`
      : `${s.alertsSeen} alerts against ${s.alertsExpected} expected, ${s.mismatches} mismatched`;
  const slope = `${s.heapSlopeMbPerMin >= 0 ? '+' : ''}${s.heapSlopeMbPerMin.toFixed(2)} MB/min`;
  const code =
    s.commit === null
      ? 'commit not recorded'
      : `commit ${s.commit.slice(0, 10)}${s.dirty ? ' with uncommitted changes' : ''}${fresh === 'changed-since' ? '; main/ or common/ changed since' : ''}`;
  const load =
    s.loadAvg === undefined
      ? ''
      : `, machine load average ${s.loadAvg[0].toFixed(1)} → ${s.loadAvg[1].toFixed(1)}${s.cores === undefined ? '' : ` on ${s.cores} cores`}`;
  return `The last soak (${s.at.slice(0, 16).replace('T', ' ')} UTC, ${s.minutes} min${load}, ${code}): ${verdict}; heap slope ${slope}.`;
}

export function replaceSoak(page: string, sentence: string): string {
  const i = page.indexOf(SOAK_START);
  const j = page.indexOf(SOAK_END);
  if (i < 0 || j < i) throw new Error(`docs/performance.md has no "${SOAK_START}" … "${SOAK_END}" block.`);
  return `${page.slice(0, i + SOAK_START.length)}\n${sentence}\n${page.slice(j)}`;
}

export function readSoak(page: string): string | null {
  const i = page.indexOf(SOAK_START);
  const j = page.indexOf(SOAK_END);
  return i < 0 || j < i ? null : page.slice(i + SOAK_START.length, j).trim();
}
