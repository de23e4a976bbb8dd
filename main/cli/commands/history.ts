/**
 * `gpu-fleet history`: what the app recorded in its timeline (main/timeline/), read from the same database
 * file, read-only, so it works while the app runs and writes. English, UTC.
 */

import type { TimelineView } from '../../../common/timeline.ts';
import { alignColumns } from '../../inventory/text-table.ts';
import { defaultConfigDir } from '../../settings/paths.ts';
import { durationText, episodeText } from '../../timeline/episode-text.ts';
import { openReader } from '../../timeline/open.ts';
import { readTimeline, recordedContexts, writerStatus } from '../../timeline/read.ts';
import { HEARTBEAT_MS } from '../../timeline/recorder.ts';
import { parseDuration, parseFlags } from '../flags.ts';
import { CliError, type CliIo, terminalLine } from '../io.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';

/** --since names a span of the timeline, not a wait: up to a year back (the database keeps 30 days by default). */
const SINCE_MAX = { ms: 366 * 86_400_000, label: '366d' };

const MAX_RANGE_MS = 400 * 86_400_000;

function time(value: string, flag: string): number {
  const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (!Number.isFinite(at))
    throw new CliError(`invalid time "${value}" for ${flag}: use RFC 3339 (e.g. 2026-12-01T08:00:00Z)`);
  return at;
}

export function rangeOf(
  flags: { since?: string; from?: string; to?: string },
  now: number,
): { from: number; to: number } {
  if (flags.since !== undefined && (flags.from !== undefined || flags.to !== undefined))
    throw new CliError('use either --since or --from/--to, not both');
  const to = flags.to === undefined ? now : time(flags.to, '--to');
  const from =
    flags.from !== undefined
      ? time(flags.from, '--from')
      : to - (flags.since === undefined ? 86_400_000 : parseDuration(flags.since, '--since', SINCE_MAX));
  if (from >= to) throw new CliError('the range is empty: --from must be before --to');
  if (to - from > MAX_RANGE_MS) throw new CliError('the range is longer than 400 days');
  return { from, to };
}

function table(v: TimelineView, wide: boolean): string {
  const lines: string[] = [];
  const status = v.status.state === 'recording' ? 'recording' : `not recording: ${v.status.reason}`;
  lines.push(
    terminalLine(
      `${v.context}${v.node ? ` / ${v.node}` : ''}: ${new Date(v.from).toISOString()} – ${new Date(v.to).toISOString()} (${status})`,
    ),
  );
  const last = v.counts.at(-1);
  if (last) {
    const low = Math.min(...v.counts.map((p) => p.ready));
    lines.push(terminalLine(`ready GPU nodes: ${last.ready}/${last.total} at the end, ${low} at the lowest`));
  }
  for (const f of v.free) {
    const end = f.points.at(-1)?.free ?? 0;
    const low = Math.min(...f.points.map((p) => p.free));
    lines.push(terminalLine(`free GPUs, ${f.product}: ${end} at the end, ${low} at the lowest`));
  }
  if (v.energy.kwh > 0) lines.push(terminalLine(`energy: ${v.energy.kwh.toFixed(2)} kWh`));
  const down = v.spans.filter((s) => s.kind === 'not-recording');
  for (const s of down)
    lines.push(
      terminalLine(
        `not recorded ${new Date(s.from).toISOString()} for ${durationText((s.to ?? v.to) - s.from)}${s.message ? `: ${s.message}` : ''}`,
      ),
    );
  if (v.episodes.length === 0) lines.push('no episodes in this range\n');
  for (const e of v.episodes) lines.push(terminalLine(episodeText(e, v.to)));
  if (wide) {
    if (v.changes.length > 0) {
      const rows = [['TIME', 'NODE', 'WHAT', 'FROM', 'TO', 'REASON']];
      for (const c of v.changes)
        rows.push([new Date(c.at).toISOString(), c.node, c.kind, c.from, c.to, c.reason ?? '']);
      lines.push(...alignColumns(rows).map((r) => terminalLine(r)));
    }
    for (const a of v.alerts) {
      const sent = a.deliveries.map(
        (d) => `${d.channel} ${d.ok ? 'sent' : `failed${d.message ? ` (${d.message})` : ''}`}`,
      );
      lines.push(
        terminalLine(
          `${new Date(a.at).toISOString()} alert ${a.kind}: ${a.title}${sent.length ? ` [${sent.join(', ')}]` : ''}`,
        ),
      );
    }
    for (const n of v.energy.nodes) lines.push(terminalLine(`energy ${n.node}: ${n.kwh.toFixed(3)} kWh`));
  }
  return lines.join('');
}

export async function historyCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    {
      context: { type: 'string' },
      node: { type: 'string' },
      since: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
    'history',
  );
  const format = parseOutput(flags.output, ['table', 'wide', 'json', 'yaml'], 'table');
  const now = Date.now();
  const { from, to } = rangeOf(flags, now);
  const opened = openReader(defaultConfigDir(io.env));
  if (!opened.ok) throw new CliError(opened.message);
  try {
    const db = opened.db;
    const status = writerStatus(db, now, 3 * HEARTBEAT_MS);
    const contexts = flags.context === undefined ? recordedContexts(db) : [flags.context];
    const views = contexts.map((context) =>
      readTimeline(
        db,
        { context, from, to, ...(flags.node === undefined ? {} : { node: flags.node }) },
        status,
      ),
    );
    if (format === 'json') io.stdout.write(toJson(flags.context === undefined ? views : views[0]));
    else if (format === 'yaml') io.stdout.write(toYaml(flags.context === undefined ? views : views[0]));
    else if (views.length === 0) io.stdout.write('nothing recorded yet\n');
    else io.stdout.write(views.map((v) => table(v, format === 'wide')).join('\n'));
  } finally {
    opened.db.close();
  }
  return 0;
}
