/**
 * Forwarding end to end on virtual time: alerts decided by the real policy (hold-down, flap damping),
 * delivered over real HTTP to the fake ntfy server (test/fakes/ntfy-fake.ts, after the recorded
 * transcripts) and to webhook receivers; retries, terminal answers, restarts and lost answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NtfyFake } from '../../test/fakes/ntfy-fake.ts';
import { WebhookFake } from '../../test/fakes/webhook-fake.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { at, play, type Step } from '../alerts/scenario.testkit.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { target } from './forward.testkit.ts';
import { Forwarder, type ForwarderOptions, type ResolvedTarget } from './forwarder.ts';
import { FilePendingStore } from './pending-store.ts';
import { MemoryDeliveryRecorder } from './recorder.ts';

const TOKEN = 'tk_abcdefghijklmnopqrstuvwxyz012';
const ALL = { nuc1: true, nuc2: true, omen: true };

let clock: ManualClock;
let ntfy: NtfyFake;
let hook: WebhookFake;
let dir: string;
const running: Forwarder[] = [];

beforeEach(async () => {
  clock = new ManualClock(at(0));
  ntfy = await NtfyFake.start({
    now: () => clock.now(),
    users: [{ name: 'rig', password: 'pw', token: TOKEN, topics: 'gpu-*' }],
  });
  hook = await WebhookFake.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-forward-'));
});
afterEach(async () => {
  for (const f of running.splice(0)) f.stop();
  await ntfy.stop();
  await hook.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function forwarder(targets: ResolvedTarget[], opts: ForwarderOptions = {}): Forwarder {
  const f = new Forwarder(targets, { clock, random: () => 0.5, ...opts });
  running.push(f);
  return f;
}

/** The alerts a host notifies (the policy's, less those decided while paused). */
function notified(steps: Step[]): PolicyAlert[] {
  return play(steps).alerts.filter((a) => !a.suppressed);
}

const ntfyTarget = (extra = {}) => target('phone', 'ntfy', `${ntfy.url}/gpu-alerts`, { token: TOKEN }, extra);

async function idle(f: Forwarder): Promise<void> {
  await f.settled();
}

describe('one decision, one message per target', () => {
  it('a drop held past the hold-down gives exactly one message per target, with cluster, node and reason', async () => {
    const f = forwarder([ntfyTarget(), target('hook', 'webhook', `${hook.url}/gpu`)]);
    const alerts = notified([
      [0, 'homelab', ALL],
      [10, 'homelab', { ...ALL, nuc1: false }],
      [20, 'homelab', { ...ALL, nuc1: false }],
    ]);
    expect(alerts.map((a) => a.kind)).toEqual(['ready-drop']);
    for (const a of alerts) f.forward(a);
    await pollUntil(() => ntfy.messages().length === 1 && hook.received.length === 1, 'one delivery each');
    await idle(f);
    const [m] = ntfy.messages('gpu-alerts');
    expect(m?.title).toContain('homelab');
    expect(m?.message).toContain('nuc1');
    expect(m?.message).toContain(alerts[0]?.reasons?.[0]?.reason ?? 'no reason');
    expect(m?.priority).toBe(4);
    expect(m?.content_type).toBe('text/markdown');
    const body = JSON.parse(hook.received[0]?.body.toString() ?? '{}');
    expect(body).toMatchObject({ version: 1, kind: 'ready-drop', cluster: 'homelab', severity: 'high' });
    expect(body.nodes[0].name).toBe('nuc1');
    clock.advance(3_600_000);
    await idle(f);
    expect([ntfy.messages().length, hook.received.length]).toEqual([1, 1]);
  });

  it('a drop shorter than the hold-down sends nothing', () => {
    expect(
      notified([
        [0, 'homelab', ALL],
        [10, 'homelab', { ...ALL, nuc1: false }],
        [20, 'homelab', ALL],
      ]),
    ).toEqual([]);
  });

  it('a flapping node gives one "flapping" message', async () => {
    const f = forwarder([ntfyTarget()]);
    const down = { ...ALL, nuc1: false };
    const alerts = notified([
      [0, 'lab', ALL],
      [10, 'lab', down],
      [20, 'lab', ALL],
      [30, 'lab', down],
      [40, 'lab', ALL],
      [2000, 'lab', ALL],
    ]);
    for (const a of alerts) f.forward(a);
    await pollUntil(() => ntfy.messages().length === alerts.length, 'the flapping message');
    expect(ntfy.messages().map((m) => m.title)).toEqual(['lab: nuc1 is flapping']);
  });

  it('routes by cluster and minimum severity, and words each target in its language', async () => {
    const f = forwarder([
      ntfyTarget({ clusters: ['work'] }),
      target('ko', 'webhook', `${hook.url}/ko`, {}, { language: 'ko', minSeverity: 'high' }),
    ]);
    const drop = notified([
      [0, 'homelab', ALL],
      [10, 'homelab', { ...ALL, nuc1: false }],
      [60, 'homelab', ALL],
    ]);
    expect(drop.map((a) => a.kind)).toEqual(['ready-drop', 'recovered']);
    expect(drop.map((a) => f.forward(a))).toEqual([1, 0]);
    await pollUntil(() => hook.received.length === 1, 'the Korean webhook');
    expect(ntfy.messages()).toEqual([]);
    expect(JSON.parse(hook.received[0]?.body.toString() ?? '{}').language).toBe('ko');
  });
});

describe('delivery', () => {
  it('429 with Retry-After is retried after it, not before', async () => {
    hook.script.push({ status: 429, headers: { 'retry-after': '120' }, body: 'rate limited' });
    const f = forwarder([target('hook', 'webhook', `${hook.url}/gpu`)]);
    f.forward(
      notified([
        [0, 'c', ALL],
        [10, 'c', { ...ALL, omen: false }],
      ])[0] as PolicyAlert,
    );
    await pollUntil(() => hook.received.length === 1, 'the first try');
    await idle(f);
    expect(f.status()[0]?.problem).toMatch(/429 rate limited; retrying in 120 s/);
    clock.advance(119_000);
    await idle(f);
    expect(hook.received).toHaveLength(1);
    clock.advance(1_000);
    await pollUntil(() => hook.received.length === 2, 'the retry');
    await idle(f);
    expect(f.status()[0]).toMatchObject({ pending: 0, problem: null });
    expect(hook.received[1]?.headers['idempotency-key']).toBe(hook.received[0]?.headers['idempotency-key']);
  });

  it('ntfy 429 (no Retry-After) waits for its bucket to refill', async () => {
    const f = forwarder([ntfyTarget()]);
    // Spend the fake's 60-request bucket from the same address.
    for (let i = 0; i < 60; i++)
      await fetch(`${ntfy.url}/gpu-alerts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: `x${i}`,
      });
    f.forward(
      notified([
        [0, 'c', ALL],
        [10, 'c', { ...ALL, omen: false }],
      ])[0] as PolicyAlert,
    );
    await pollUntil(() => ntfy.seen.length === 61, 'the limited try');
    await idle(f);
    expect(f.status()[0]?.problem).toMatch(/429 limit reached: too many requests; retrying in 5 s/);
    clock.advance(5_000);
    await pollUntil(() => ntfy.messages().length === 61, 'the retry after the refill');
  });

  it('403 is terminal and shown in one sentence, and not retried', async () => {
    const recorder = new MemoryDeliveryRecorder();
    const f = forwarder([target('phone', 'ntfy', `${ntfy.url}/other-topic`, { token: TOKEN })], { recorder });
    f.forward(
      notified([
        [0, 'c', ALL],
        [10, 'c', { ...ALL, omen: false }],
      ])[0] as PolicyAlert,
    );
    await pollUntil(() => recorder.events.length === 1, 'the refusal');
    expect(f.status()[0]).toMatchObject({
      pending: 0,
      problem: `ntfy ${ntfy.url}: 403 forbidden — check the token or password, and that it may write to this topic`,
    });
    expect(recorder.events[0]?.outcome).toBe('failed');
    clock.advance(3_600_000);
    await idle(f);
    expect(ntfy.seen).toHaveLength(1);
  });

  it('gives an ntfy message a click URL to its first node when a window is served, and none otherwise', async () => {
    let base: string | null = null;
    const f = forwarder([ntfyTarget()], { clickBase: () => base });
    const drops = (context: string) =>
      notified([
        [0, context, ALL],
        [10, context, { ...ALL, omen: false }],
      ]);
    for (const a of drops('lab a')) f.forward(a);
    await pollUntil(() => ntfy.messages().length === 1, 'the first drop');
    base = 'http://127.0.0.1:8377/';
    for (const a of drops('lab b')) f.forward(a);
    await pollUntil(() => ntfy.messages().length === 2, 'the second drop');
    expect(ntfy.messages().map((m) => m.click ?? null)).toEqual([
      null,
      'http://127.0.0.1:8377/#node=lab%20b/omen',
    ]);
  });

  it('a restart with undelivered messages delivers them once', async () => {
    const file = path.join(dir, 'forward-queue.json');
    const port = Number(new URL(ntfy.url).port);
    await ntfy.stop();
    const first = forwarder([ntfyTarget()], { store: new FilePendingStore(file) });
    const alert = notified([
      [0, 'c', ALL],
      [10, 'c', { ...ALL, omen: false }],
    ])[0] as PolicyAlert;
    first.forward(alert);
    await pollUntil(
      () => first.status()[0]?.problem?.includes('connection refused') === true,
      'a refused try',
    );
    await idle(first);
    first.stop();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(TOKEN);
    ntfy = await NtfyFake.start({
      now: () => clock.now(),
      port,
      users: [{ name: 'rig', password: 'pw', token: TOKEN, topics: 'gpu-*' }],
    });
    const second = forwarder([ntfyTarget()], { store: new FilePendingStore(file) });
    await pollUntil(() => ntfy.messages().length === 1, 'the restored message');
    await idle(second);
    second.stop();
    const third = forwarder([ntfyTarget()], { store: new FilePendingStore(file) });
    third.forward(alert); // the same alert again is a new queue's news, but the file held nothing
    await pollUntil(() => ntfy.messages().length === 2, 'the repeat');
    expect(ntfy.messages().filter((m) => m.title === ntfy.messages()[0]?.title)).toHaveLength(2);
  });

  it('no duplicate after a retry whose first try actually succeeded (the answer was lost)', async () => {
    ntfy.faults.push({ type: 'drop-answer' });
    const f = forwarder([ntfyTarget()]);
    f.forward(
      notified([
        [0, 'c', ALL],
        [10, 'c', { ...ALL, omen: false }],
      ])[0] as PolicyAlert,
    );
    await pollUntil(() => f.status()[0]?.problem?.includes('retrying') === true, 'the lost answer');
    await idle(f);
    // Exactly to the retry: a longer step would also run out the check's own request timeout.
    expect(f.status()[0]?.problem).toMatch(/connection reset; retrying in 2 s$/);
    clock.advance(2_000);
    await pollUntil(() => f.status()[0]?.pending === 0, 'the check');
    expect(ntfy.messages()).toHaveLength(1);
    expect(ntfy.seen.map((s) => s.method)).toEqual(['POST', 'GET']);
  });

  it('a target down for hours keeps a bounded queue: the oldest are dropped and counted', async () => {
    await hook.stop();
    const f = forwarder([target('hook', 'webhook', `${hook.url}/gpu`)], { queueMax: 3 });
    const steps: Step[] = [[0, 'c', ALL]];
    for (let i = 1; i <= 5; i++) steps.push([i * 100, 'c', { ...ALL, nuc1: i % 2 === 0 }]);
    const alerts = notified(steps);
    expect(alerts.length).toBeGreaterThanOrEqual(4);
    for (const a of alerts) f.forward(a);
    await idle(f);
    expect(f.status()[0]).toMatchObject({ pending: 3, dropped: alerts.length - 3 });
    hook = await WebhookFake.start();
  });
});

describe("a server's words never carry the target's own secret", () => {
  // A proxy or a misconfigured receiver may echo what it was sent; a plain password or signing key has
  // no shape the redaction patterns know, so the target's own secret values are struck out by value.
  const PASSWORD = 'correct-horse-battery';
  const KEY = 'sk9-plain-signing-words';

  it('a refusal that echoes the ntfy password or the webhook signing key names neither', async () => {
    hook.script.push(
      { status: 401, body: `{"error":"user rig with password ${PASSWORD} is not allowed"}` },
      { status: 503, body: `bad signature for key ${KEY}` },
      { status: 400, body: `no such hook ${hook.url}/T000/B000/XXXXsecretpath` },
    );
    const recorder = new MemoryDeliveryRecorder();
    const f = forwarder(
      [
        target('phone', 'ntfy', `${hook.url}/gpu-alerts`, { user: 'rig', password: PASSWORD }),
        target('hook', 'webhook', `${hook.url}/gpu`, { signingKey: KEY }),
        target('chat', 'slack', `${hook.url}/T000/B000/XXXXsecretpath`),
      ],
      { recorder },
    );
    const results = [await f.test('phone'), await f.test('hook'), await f.test('chat')];
    expect(results.map((r) => r.ok)).toEqual([false, false, false]);
    const shown = JSON.stringify(results);
    expect(shown).toContain('[redacted]');
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain('XXXXsecretpath');
    // The queued path words its retry from the same answer.
    const queued = forwarder([target('hook', 'webhook', `${hook.url}/gpu`, { signingKey: KEY })], {
      recorder,
    });
    hook.script.push({ status: 503, body: `bad signature for key ${KEY}` });
    const [a] = notified([
      [0, 'homelab', ALL],
      [10, 'homelab', { ...ALL, nuc1: false }],
      [20, 'homelab', { ...ALL, nuc1: false }],
    ]);
    if (a) queued.forward(a);
    await pollUntil(() => queued.status().some((s) => s.problem !== null), 'a retry');
    expect(JSON.stringify(queued.status())).toContain('[redacted]');
    expect(JSON.stringify(recorder.events)).not.toContain(KEY);
    expect(JSON.stringify(queued.status())).not.toContain(KEY);
  });
});

describe('a secret no HTTP header can carry', () => {
  it('a token with a character a header refuses is a failed delivery, never a thrown send', async () => {
    // Node's http refuses such a header synchronously; a send that threw would reject the queue's run
    // (an unhandled rejection ends the process, and a restart reads the same secret and queue again).
    const f = forwarder([target('phone', 'ntfy', `${ntfy.url}/gpu-alerts`, { token: 'tk_a\u200bb' })]);
    const result = await f.test('phone');
    expect(result.ok).toBe(false);
    expect(result.words?.code).toBe('retry');
    const [a] = notified([
      [0, 'homelab', ALL],
      [10, 'homelab', { ...ALL, nuc1: false }],
      [20, 'homelab', { ...ALL, nuc1: false }],
    ]);
    if (a) f.forward(a);
    await pollUntil(() => f.status().some((s) => s.problem !== null), 'a retry');
    expect(f.status()[0]?.pending).toBe(1);
  });
});
