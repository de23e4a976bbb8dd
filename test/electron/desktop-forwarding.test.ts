/**
 * Forwarding in the desktop app end to end under Node: main bundle + Electron double (its safeStorage
 * double) + engine host + sim + the fake ntfy. The window enters a token (write-only) through IPC; main
 * keeps it in the safeStorage vault and hands it to the host, which sends a test and forwards a drop to
 * the fake ntfy. A killed host gets the secret again from main. A planted token appears in no log line,
 * no settings file, no window push, no invoke answer and no error sentence, and the vault holds it only
 * encrypted.
 */
import fs, { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { ForwardTargetSetting, ForwardTestResult, ForwardView } from '../../common/forwarding.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { NtfyFake } from '../fakes/ntfy-fake.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

const TOKEN = 'tk_desktopplantedplantedplanted1';
const WRONG = 'tk_wrongwrongwrongwrongwrongwron';
/** A password has no shape the log's redaction could know: only keeping it out works. */
const PASSWORD = 'hunter2-planted-Zq8xv';
let sim: RunningSim;
let ntfy: NtfyFake;
let double: ElectronDouble;
let windowId = 0;
/** Every answer the window got, as text. */
const answers: string[] = [];

const phone = (): ForwardTargetSetting => ({
  id: 'phone',
  kind: 'ntfy',
  url: ntfy.url,
  topic: 'gpu-alerts',
  clusters: 'all',
  minSeverity: 'low',
  language: 'en',
  enabled: true,
});

const ask = async <T>(channel: string, ...args: unknown[]): Promise<T> => {
  try {
    const value = await double.invoke(channel, windowId, ...args);
    answers.push(JSON.stringify(value));
    return value as T;
  } catch (error) {
    answers.push(JSON.stringify(error));
    throw error;
  }
};

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  ntfy = await NtfyFake.start({
    now: () => Date.now(),
    users: [{ name: 'rig', password: PASSWORD, token: TOKEN, topics: 'gpu-*' }],
  });
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-fwd-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(kubeconfig, {
    contexts: ['sim-admin'],
    alertRules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 },
    forwarding: [phone()],
  });
  double.trays[0]?.menu.find((i) => i.label === 'Open GPU Fleet')?.click?.();
  const contents = double.windows[0]?.webContents;
  if (!contents) throw new Error('no window');
  await pollUntil(() => contents.subscribed, 'the page');
  windowId = contents.id;
});
afterAll(async () => {
  await double?.close();
  await ntfy?.stop();
  await sim?.close();
});

it('keeps the token in the vault, sends a test and forwards a drop through the host; the window sees "set" only', async () => {
  const before = await ask<ForwardView>('forward:list');
  expect(before.editable?.map((t) => t.id)).toEqual(['phone']);
  expect(before.secretSet).toEqual([]);
  // Main says what its vault can do before anyone types a secret: here the keychain works.
  expect(before.vault).toEqual({ unavailable: null, problems: [] });

  // The window sets the token; what comes back says it is set, and nothing more.
  const after = await ask<ForwardView>('forward:secret', 'phone', { token: TOKEN });
  expect(after.secretSet).toEqual(['phone']);
  const vault = fs.readFileSync(path.join(double.userData, 'forward-secrets.json'), 'utf8');
  expect(vault).not.toContain(TOKEN);
  expect(Buffer.from(vault).toString('base64')).not.toContain(Buffer.from(TOKEN).toString('base64'));

  const test = await ask<ForwardTestResult>('forward:test', 'phone');
  expect(test).toMatchObject({ ok: true, words: { code: 'delivered', kind: 'ntfy' } });
  expect(ntfy.messages('gpu-alerts').map((m) => m.title)).toEqual(['GPU Fleet: test message']);
  // The token went to ntfy, in the header only.
  expect(ntfy.seen.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);

  sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'PLEG is not healthy');
  await pollUntil(() => ntfy.messages('gpu-alerts').length >= 2, 'the drop on the phone', {
    limitMs: 15_000,
  });
  const drop = ntfy.messages('gpu-alerts')[1];
  expect(drop?.title).toBe('sim-admin: 1 GPU node down');
  expect(drop?.message).toContain('omen');
});

it('gives a killed host the secret again', async () => {
  const first = double.utilityProcesses.at(-1);
  first?.kill();
  await pollUntil(
    () => double.utilityProcesses.length === 2 && double.trays[0]?.tooltip.includes('/4') === true,
    'a new host',
    { limitMs: 40_000 },
  );
  // The new host answers once it runs; by then main gave it the secret right after its init.
  let view: ForwardView | null = null;
  // Capped at about 40 s of real time: a loaded machine starts a host slowly.
  for (let i = 0; i < 400 && !view?.editable; i++) {
    view = await ask<ForwardView>('forward:list').catch(() => null);
    if (!view?.editable) await new Promise((r) => setTimeout(r, 100));
  }
  expect(view?.secretSet).toEqual(['phone']);
  const tests = () => ntfy.messages('gpu-alerts').filter((m) => m.title === 'GPU Fleet: test message');
  const n = tests().length;
  expect(await ask<ForwardTestResult>('forward:test', 'phone')).toMatchObject({ ok: true });
  expect(tests()).toHaveLength(n + 1);
}, 90_000);

it('words a refused token in one sentence without it, and refuses a secret of the wrong shape', async () => {
  await ask('forward:secret', 'phone', { token: WRONG });
  const refused = await ask<ForwardTestResult>('forward:test', 'phone');
  expect(refused.ok).toBe(false);
  expect(refused.message).toMatch(/^ntfy http:\/\/127\.0\.0\.1:\d+: 401 unauthorized — check the token/);
  expect(refused.words).toMatchObject({ code: 'refused', kind: 'ntfy' });
  // Refusals carry their facts (the window words them) beside the English.
  await expect(ask('forward:secret', 'phone', { url: `https://hooks.example/${TOKEN}` })).rejects.toEqual({
    kind: 'bad-request',
    message: 'phone: an ntfy target takes a token, or a user and password.',
    words: { code: 'secretParts', id: 'phone', kind: 'ntfy' },
  });
  await expect(ask('forward:secret', 'nobody', { token: TOKEN })).rejects.toEqual({
    kind: 'bad-request',
    message: 'There is no forwarding target "nobody".',
    words: { code: 'noTarget', id: 'nobody' },
  });
  // The host's refusal crosses the host protocol and main with its facts too.
  await expect(
    ask('forward:save', {
      ...phone(),
      id: 'chat',
      kind: 'slack',
      url: `https://hooks.slack.com/${TOKEN}`,
      topic: '',
    }),
  ).rejects.toEqual({
    kind: 'bad-request',
    message: "chat: a slack webhook URL is a secret: enter it as the target's secret, not in its settings.",
    words: { code: 'urlIsSecret', id: 'chat', kind: 'slack' },
  });
  // A user and password work as well as the token.
  await ask('forward:secret', 'phone', { user: 'rig', password: PASSWORD });
  expect(await ask<ForwardTestResult>('forward:test', 'phone')).toMatchObject({ ok: true });
  await ask('forward:secret', 'phone', { token: TOKEN });
});

it('says in the view that a desktop without a secret store cannot keep secrets, and refuses one with its facts', async () => {
  double.safeStorage.backend = 'basic_text';
  try {
    const view = await ask<ForwardView>('forward:list');
    expect(view.vault?.unavailable).toEqual({ code: 'keychainBasicText' });
    expect(view.secretSet).toEqual(['phone']);
    await expect(ask('forward:secret', 'phone', { token: TOKEN })).rejects.toEqual({
      kind: 'bad-request',
      message:
        'No system keychain (secret service) was found, so forwarding secrets cannot be stored safely; install gnome-keyring or KWallet.',
      words: { code: 'keychainBasicText' },
    });
  } finally {
    double.safeStorage.backend = 'gnome_libsecret';
  }
  expect((await ask<ForwardView>('forward:list')).vault?.unavailable).toBeNull();
});

it('the planted tokens are in no log line, settings file, window push, answer or error sentence', async () => {
  const contents = double.windows[0]?.webContents;
  const texts = {
    log: fs.readFileSync(path.join(double.userData, 'gpu-fleet.log'), 'utf8'),
    settings: fs.readFileSync(path.join(double.userData, 'settings.json'), 'utf8'),
    queue: fs.existsSync(path.join(double.userData, 'forward-queue.json'))
      ? fs.readFileSync(path.join(double.userData, 'forward-queue.json'), 'utf8')
      : '',
    vault: fs.readFileSync(path.join(double.userData, 'forward-secrets.json'), 'utf8'),
    pushes: JSON.stringify(contents?.sent ?? []),
    answers: answers.join('\n'),
  };
  // The checks look at something: the log has lines, the window got pushes, the answers are there.
  expect(texts.log.length).toBeGreaterThan(100);
  expect(texts.pushes).toContain('fleet:');
  expect(texts.answers).toContain('401 unauthorized');
  expect(texts.settings).toContain('"forwarding"');
  for (const [where, text] of Object.entries(texts)) {
    expect(text.includes(TOKEN), `${where} holds the token`).toBe(false);
    expect(text.includes(WRONG), `${where} holds the wrong token`).toBe(false);
    expect(text.includes(PASSWORD), `${where} holds the password`).toBe(false);
  }
});
