/** The inventory's public API: pure functions from trimmed Node facts to SPEC.md's status schema. */
export { buildInventory, inventoriesEqual, withObservedAt } from './aggregate.ts';
export { deriveEntry } from './derive.ts';
export { isGpuNode } from './detect.ts';
export { formatInventoryTable, shortProduct } from './format-table.ts';
export { appendHistory } from './history.ts';
export { forgetLabels, rememberAllLabels, rememberLabels, retainLabels } from './last-seen.ts';
export { type NodeFacts, trimNode } from './node-facts.ts';
