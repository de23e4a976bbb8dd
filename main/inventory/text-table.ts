/**
 * Column alignment the way kubectl prints (Go tabwriter: minimum width 6, padding 3, spaces, the
 * last column unpadded), so `gpu-fleet scan` output looks at home next to `kubectl get nodes`. Cells
 * hold names and text from clusters and kubeconfigs, so each passes the text gate first: a cell can
 * neither send escape sequences to the terminal nor break the table with a newline.
 */
import { clusterText, SENTENCE_MAX } from '../../common/cluster-text.ts';

const MIN_WIDTH = 6;
const PADDING = 3;

export function alignColumns(input: readonly (readonly string[])[]): string[] {
  const rows = input.map((row) => row.map((cell) => clusterText(cell, SENTENCE_MAX)));
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
