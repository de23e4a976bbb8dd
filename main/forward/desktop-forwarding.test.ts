/**
 * The desktop app's forwarding in the engine host: nothing is sent before Electron main's secrets
 * arrive (alerts wait), a target whose secret is not set keeps its undelivered messages in the pending
 * file across rebuilds, and removing a target drops them. The real forwarder and file store; the sender
 * is a loopback-free double that refuses every connection (so messages stay queued).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { toErrorInfo } from '../../common/errors.ts';
import { FORWARD_TARGETS_MAX, type ForwardTargetSetting } from '../../common/forwarding.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { at, play } from '../alerts/scenario.testkit.ts';
import { openSettings } from '../settings/store.ts';
import { DesktopForwarding } from './desktop-forwarding.ts';
import { FilePendingStore } from './pending-store.ts';
import type { Sender } from './send.ts';

const ALL = { nuc1: true, nuc2: true, omen: true };
let dir: string;
let settings: ForwardTargetSetting[];
let sent: string[];
let running: DesktopForwarding | null = null;

const slack: ForwardTargetSetting = {
  id: 'chat',
  kind: 'slack',
  url: '',
  topic: '',
  clusters: 'all',
  minSeverity: 'low',
  language: 'en',
  enabled: true,
};
const refused: Sender = async (req) => {
  sent.push(req.url);
  return { type: 'failure', what: 'connection refused', sent: false };
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-desk-fwd-'));
  settings = [slack];
  sent = [];
});
afterEach(() => {
  running?.stop();
  running = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

const open = () => {
  running = new DesktopForwarding({
    read: () => settings,
    write: (t) => {
      settings = [...t];
    },
    store: new FilePendingStore(path.join(dir, 'forward-queue.json')),
    forwarder: { clock: new ManualClock(at(0)), send: refused, random: () => 0.5 },
  });
  return running;
};
const drop = () => {
  const alert = play([
    [0, 'lab', ALL],
    [10, 'lab', { ...ALL, omen: false }],
  ]).alerts[0];
  if (!alert) throw new Error('no alert');
  return alert;
};
const queued = () => {
  const file = path.join(dir, 'forward-queue.json');
  return fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { queues: Record<string, unknown[]> }).queues
    : {};
};

it('holds alerts until the secrets arrive, then sends them', async () => {
  const f = open();
  expect(f.forward(drop())).toBe(0);
  expect(sent).toEqual([]);
  f.setSecrets({ chat: { url: 'https://hooks.slack.com/services/T0/B0/x' } });
  await f.settled();
  expect(sent).toEqual(['https://hooks.slack.com/services/T0/B0/x']);
});

it('keeps the messages of a target whose secret is cleared, and drops them with the target', async () => {
  const f = open();
  f.setSecrets({ chat: { url: 'https://hooks.slack.com/services/T0/B0/x' } });
  f.forward(drop());
  await f.settled();
  expect(queued().chat).toHaveLength(1);
  // The secret is cleared: the target cannot run, its message waits in the file.
  f.setSecrets({});
  expect(f.view().problems?.chat).toEqual({ code: 'urlNotSet', id: 'chat', kind: 'slack' });
  expect(queued().chat).toHaveLength(1);
  // A change of another target rebuilds the forwarder again: still kept.
  f.save({ ...slack, id: 'chat2' });
  expect(queued().chat).toHaveLength(1);
  f.remove('chat');
  expect(queued().chat).toBeUndefined();
  expect(settings.map((t) => t.id)).toEqual(['chat2']);
});

it('refuses a target the window should not have sent, in facts and one English sentence', () => {
  const f = open();
  f.setSecrets({});
  const refused = (() => {
    try {
      f.save({ ...slack, url: 'https://hooks.slack.com/services/T0/B0/secret' });
    } catch (e) {
      return toErrorInfo(e);
    }
    return null;
  })();
  expect(refused).toEqual({
    kind: 'bad-request',
    message: "chat: a slack webhook URL is a secret: enter it as the target's secret, not in its settings.",
    words: { code: 'urlIsSecret', id: 'chat', kind: 'slack' },
  });
  expect(settings).toEqual([slack]);
});

it('refuses a 17th target with its facts', () => {
  const f = open();
  f.setSecrets({});
  for (let i = settings.length; i < FORWARD_TARGETS_MAX; i++) f.save({ ...slack, id: `chat-${i}` });
  expect(() => f.save({ ...slack, id: 'one-more' })).toThrow(
    expect.objectContaining({
      words: { code: 'tooMany', max: 16 },
      message: 'At most 16 forwarding targets.',
    }),
  );
});

it('passes on the facts of a settings file that cannot be written, for "Save target" and "Remove"', () => {
  const disk = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  let full = false;
  const store = openSettings({
    cwd: dir,
    createBackend: () => ({
      get store() {
        return {};
      },
      set store(_v) {
        if (full) throw disk;
      },
    }),
  });
  store.update({ forwarding: [slack] });
  running = new DesktopForwarding({
    read: () => store.get('forwarding'),
    write: (forwarding) => store.update({ forwarding }),
    store: new FilePendingStore(path.join(dir, 'forward-queue.json')),
    forwarder: { clock: new ManualClock(at(0)), send: refused, random: () => 0.5 },
  });
  running.setSecrets({});
  full = true;
  const failure = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return toErrorInfo(e);
    }
    return null;
  };
  const words = { code: 'settingsSaveFailed', errno: 'ENOSPC' };
  expect(failure(() => running?.save({ ...slack, id: 'other' }))).toMatchObject({ kind: 'failed', words });
  expect(failure(() => running?.remove('chat'))).toMatchObject({ kind: 'failed', words });
  expect(store.get('forwarding')).toEqual([slack]);
});
