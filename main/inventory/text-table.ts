/**
 * Column alignment the way kubectl prints (Go tabwriter: minimum width 6, padding 3, spaces, the
 * last column unpadded), so `gpu-fleet scan` output looks at home next to `kubectl get nodes`.
 */

const MIN_WIDTH = 6;
const PADDING = 3;

export function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? MIN_WIDTH, cell.length + PADDING);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('')
      .trimEnd(),
  );
}
