/**
 * The alert log: oldest first, bounded (default 500), idempotent by alert id so replaying the same
 * alerts (ids are deterministic) never duplicates lines. Pure; settings persists the result.
 */
import type { PolicyAlert } from './types.ts';

export const DEFAULT_LOG_LIMIT = 500;

/** Keeps the newest `limit` entries. */
export function trimLog<T extends PolicyAlert>(log: readonly T[], limit = DEFAULT_LOG_LIMIT): T[] {
  const keep = Math.max(0, Math.floor(limit));
  return keep === 0 ? [] : log.slice(-keep);
}

export function appendAlerts<T extends PolicyAlert>(
  log: readonly T[],
  alerts: readonly T[],
  limit = DEFAULT_LOG_LIMIT,
): T[] {
  if (alerts.length === 0) return trimLog(log, limit);
  const seen = new Set(log.map((a) => a.id));
  const fresh: T[] = [];
  for (const a of alerts) {
    if (seen.has(a.id)) continue;
    seen.add(a.id);
    fresh.push(a);
  }
  return trimLog([...log, ...fresh], limit);
}
