/**
 * Undelivered messages across a restart: one small JSON file in the data folder, mode 0600 (it holds
 * alert texts, never a secret), replaced atomically (temp file + rename), bounded in targets, messages
 * and bytes. What is read back is checked against its schema once, here; a file that fails is set
 * aside, named in the returned notice, and the queues start empty. The timeline database may take over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { SEVERITIES, TARGET_ID } from '../../common/forwarding.ts';
import { LOCALES } from '../../common/i18n/locales.ts';
import { check } from '../../common/validate.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import type { QueueItem } from './queue.ts';

export const PENDING_FILE = 'forward-queue.json';
export const PENDING_BYTES_MAX = 2 * 1024 * 1024;
const QUEUE_MAX = 200;

const Text = (max: number) => Type.String({ maxLength: max });
const MessageSchema = Type.Object({
  eventId: Type.String({ pattern: '^[0-9a-f]{32}$' }),
  alertId: Text(600),
  kind: Text(40),
  severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
  context: Text(300),
  at: Text(40),
  nodes: Type.Array(Type.Object({ name: Text(253), reason: Type.Union([Text(1000), Type.Null()]) }), {
    maxItems: 50,
  }),
  before: Type.Union([Type.Integer(), Type.Null()]),
  after: Type.Union([Type.Integer(), Type.Null()]),
  language: Type.Union(LOCALES.map((l) => Type.Literal(l))),
  title: Text(300),
  body: Text(4000),
});
const ItemSchema = Type.Object({
  message: MessageSchema,
  attempts: Type.Integer({ minimum: 0 }),
  firstTriedAt: Type.Union([Type.Number(), Type.Null()]),
  ambiguous: Type.Boolean(),
});
const FileSchema = Type.Object({
  version: Type.Literal(1),
  queues: Type.Record(
    Type.String({ pattern: TARGET_ID.source }),
    Type.Array(ItemSchema, { maxItems: QUEUE_MAX }),
  ),
});
type PendingFile = Static<typeof FileSchema>;

export interface PendingStore {
  load(): { queues: Record<string, QueueItem[]>; notice: string | null };
  save(queues: Record<string, readonly QueueItem[]>): void;
}

export class MemoryPendingStore implements PendingStore {
  #saved: Record<string, QueueItem[]> = {};
  load() {
    return { queues: structuredClone(this.#saved), notice: null };
  }
  save(queues: Record<string, readonly QueueItem[]>): void {
    this.#saved = structuredClone(queues) as Record<string, QueueItem[]>;
  }
}

export class FilePendingStore implements PendingStore {
  constructor(
    readonly file: string,
    private readonly clock: Clock = systemClock,
  ) {}

  load(): { queues: Record<string, QueueItem[]>; notice: string | null } {
    let text: string;
    try {
      if (fs.statSync(this.file).size > PENDING_BYTES_MAX) return this.#aside('larger than 2 MiB');
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT')
        return { queues: {}, notice: null };
      return {
        queues: {},
        notice: `Undelivered alerts could not be read (${codeOf(error)}); none will be resent.`,
      };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return this.#aside('not JSON');
    }
    const checked = check(FileSchema, parsed);
    if (!checked.ok) return this.#aside(checked.error);
    return { queues: checked.value.queues as Record<string, QueueItem[]>, notice: null };
  }

  save(queues: Record<string, readonly QueueItem[]>): void {
    const kept: PendingFile['queues'] = {};
    for (const [id, items] of Object.entries(queues))
      if (items.length > 0) kept[id] = items.slice(-QUEUE_MAX) as QueueItem[];
    let text = JSON.stringify({ version: 1, queues: kept } satisfies PendingFile);
    // Over the cap: the oldest messages of the longest queue go first until it fits.
    while (Buffer.byteLength(text) > PENDING_BYTES_MAX) {
      const longest = Object.values(kept).sort((a, b) => b.length - a.length)[0];
      if (!longest || longest.length === 0) break;
      longest.shift();
      text = JSON.stringify({ version: 1, queues: kept });
    }
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  #aside(why: string): { queues: Record<string, QueueItem[]>; notice: string } {
    const to = `${this.file}.bad-${this.clock.now()}`;
    try {
      fs.renameSync(this.file, to);
      return {
        queues: {},
        notice: `Undelivered alerts were unreadable (${why}); the file was moved to ${path.basename(to)}.`,
      };
    } catch (error) {
      return {
        queues: {},
        notice: `Undelivered alerts were unreadable (${why}) and could not be moved aside (${codeOf(error)}).`,
      };
    }
  }
}

function codeOf(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : 'error';
}
