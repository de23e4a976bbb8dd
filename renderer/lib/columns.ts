/** The node table's columns: SPEC.md's six, then the extras the wide view adds. */
import type { SortKey } from './nodes.ts';

export interface Column {
  key: SortKey;
  label: string;
  /** Only in the wide view. */
  wide: boolean;
  /** CSS width; the table uses a fixed layout so rows never reflow while scrolling. */
  width: string;
  numeric?: boolean;
}

export const COLUMNS: readonly Column[] = [
  { key: 'name', label: 'Name', wide: false, width: '8.5rem' },
  { key: 'ready', label: 'Ready', wide: false, width: '6.5rem' },
  { key: 'product', label: 'Product', wide: false, width: '16rem' },
  { key: 'count', label: 'GPUs', wide: false, width: '4.5rem', numeric: true },
  { key: 'memory', label: 'Memory', wide: false, width: '7rem', numeric: true },
  { key: 'workload', label: 'Workload', wide: false, width: '8.5rem' },
  { key: 'readiness', label: 'Readiness', wide: true, width: '15rem' },
  { key: 'allocatable', label: 'Alloc / Cap', wide: true, width: '6.5rem', numeric: true },
  { key: 'mig', label: 'MIG', wide: true, width: '10rem' },
  { key: 'sharing', label: 'Sharing', wide: true, width: '9rem' },
  { key: 'cordoned', label: 'Cordoned', wide: true, width: '6.5rem' },
  { key: 'problems', label: 'Problems', wide: true, width: '16rem' },
];

export function columnsFor(wide: boolean): Column[] {
  return COLUMNS.filter((c) => wide || !c.wide);
}
