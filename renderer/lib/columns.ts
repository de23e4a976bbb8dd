/** The node table's columns: SPEC.md's six, then the extras the wide view adds. */
import type { MessageKey } from '../../common/i18n/catalog-types.ts';
import type { SortKey } from './nodes.ts';

export interface Column {
  key: SortKey;
  /** Its heading's message. */
  label: MessageKey;
  /** Only in the wide view. */
  wide: boolean;
  /** CSS width; the table uses a fixed layout so rows never reflow while scrolling. */
  width: string;
  numeric?: boolean;
}

export const COLUMNS: readonly Column[] = [
  { key: 'name', label: 'table.column.name', wide: false, width: '8.5rem' },
  { key: 'ready', label: 'table.column.ready', wide: false, width: '6.5rem' },
  { key: 'product', label: 'table.column.product', wide: false, width: '16rem' },
  { key: 'count', label: 'table.column.count', wide: false, width: '4.5rem', numeric: true },
  { key: 'memory', label: 'table.column.memory', wide: false, width: '7rem', numeric: true },
  { key: 'workload', label: 'table.column.workload', wide: false, width: '8.5rem' },
  { key: 'readiness', label: 'table.column.readiness', wide: true, width: '15rem' },
  { key: 'allocatable', label: 'table.column.allocatable', wide: true, width: '6.5rem', numeric: true },
  { key: 'mig', label: 'table.column.mig', wide: true, width: '10rem' },
  { key: 'sharing', label: 'table.column.sharing', wide: true, width: '9rem' },
  { key: 'cordoned', label: 'table.column.cordoned', wide: true, width: '6.5rem' },
  { key: 'problems', label: 'table.column.problems', wide: true, width: '16rem' },
];

export function columnsFor(wide: boolean): Column[] {
  return COLUMNS.filter((c) => wide || !c.wide);
}
