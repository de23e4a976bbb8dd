/**
 * The numbering of the fleet stream (see `PushEvents` in ipc.ts): which published snapshot a window
 * holds, as `epoch` (random per publisher) and `seq` (1, 2, … within it), and the SSE id that says so.
 */
import type { FleetSnapshot } from './fleet.ts';
import type { FleetDelta } from './fleet-delta.ts';

export interface SyncMark {
  /** Random per publisher: a restarted engine host starts a new epoch, and windows resynchronise. */
  epoch: string;
  /** The number of this snapshot among those the publisher published, from 1. */
  seq: number;
}

/** A snapshot with the place in the stream it is (the stamp rides beside the snapshot's own fields). */
export type SyncedSnapshot = FleetSnapshot & SyncMark;

/** The change from published snapshot `from` to `to` (= from + 1) of `epoch`. */
export type FleetDeltaFrame = FleetDelta & { epoch: string; from: number; to: number };

const EPOCH = /^[A-Za-z0-9_-]{1,64}$/;
const ID = /^([A-Za-z0-9_-]{1,64}):(\d{1,15})$/;

export function isEpoch(value: string): boolean {
  return EPOCH.test(value);
}

/** The SSE event id of a fleet frame: `<epoch>:<seq>`. */
export function syncId(mark: SyncMark): string {
  return `${mark.epoch}:${mark.seq}`;
}

/** A Last-Event-ID as a client sent it (anything), or null when it is not one of ours. */
export function parseSyncId(value: unknown): SyncMark | null {
  if (typeof value !== 'string') return null;
  const m = ID.exec(value);
  if (!m) return null;
  const seq = Number(m[2]);
  return Number.isSafeInteger(seq) ? { epoch: m[1] as string, seq } : null;
}

/** The snapshot without its stamp (what the window keeps and applies deltas to). */
export function unstamped(s: SyncedSnapshot): FleetSnapshot {
  const { epoch: _e, seq: _s, ...snapshot } = s;
  return snapshot;
}
