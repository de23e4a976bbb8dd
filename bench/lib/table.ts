/** The bench's result rows and their Markdown table. */

export interface Row {
  /** "1", "2a"… as in issue 8. */
  id: string;
  measure: string;
  ours: string;
  baseline: string;
  target: string;
  /** Whether our figure meets the target; null where the issue sets none. */
  met: boolean | null;
  /** Measured values behind the strings, for bench/results/latest.json. */
  raw: Record<string, unknown>;
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function markdownTable(rows: readonly Row[]): string {
  const head = '| # | Measure | GPU Fleet | Baseline | Target | Met |\n|---|---|---|---|---|---|';
  const lines = rows.map((r) => {
    const met = r.met === null ? '–' : r.met ? 'yes' : '**no**';
    return `| ${r.id} | ${cell(r.measure)} | ${cell(r.ours)} | ${cell(r.baseline)} | ${cell(r.target)} | ${met} |`;
  });
  return [head, ...lines].join('\n');
}
