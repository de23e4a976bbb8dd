/**
 * The bodies each target receives: the webhook's signature checked with node:crypto on its own, and
 * the Slack and Discord bodies against the shapes those services document.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ForwardMessage } from './message.ts';
import { DISCORD_CONTENT_MAX, discordRequest, slackRequest } from './render-chat.ts';
import { eventTag, NTFY_MESSAGE_BYTES_MAX, ntfyRequest, utf8Cut } from './render-ntfy.ts';
import { SIGNATURE_HEADER, webhookRequest } from './render-webhook.ts';

const message = (over: Partial<ForwardMessage> = {}): ForwardMessage => ({
  eventId: '0123456789abcdef0123456789abcdef',
  alertId: 'lab:ready-drop:2026-12-01T22:00:00.000Z',
  kind: 'ready-drop',
  severity: 'high',
  context: 'lab',
  at: '2026-12-01T22:00:00.000Z',
  nodes: [{ name: 'nuc1', reason: 'KubeletNotReady: PLEG is not healthy' }],
  before: 4,
  after: 3,
  language: 'en',
  title: 'lab: 1 GPU node down',
  body: 'nuc1: KubeletNotReady <b>&</b> @everyone *bold*',
  ...over,
});

describe('webhook', () => {
  it('signs the exact body: a receiver recomputes the HMAC with node:crypto and it matches', () => {
    const key = 'whsec-test-key';
    const req = webhookRequest(message(), 'http://127.0.0.1:9/hook', key);
    const header = req.headers[SIGNATURE_HEADER] ?? '';
    const expected = `sha256=${createHmac('sha256', key)
      .update(Buffer.from(req.body ?? '', 'utf8'))
      .digest('hex')}`;
    expect(timingSafeEqual(Buffer.from(header), Buffer.from(expected))).toBe(true);
    const tampered = createHmac('sha256', key).update(`${req.body} `).digest('hex');
    expect(header).not.toBe(`sha256=${tampered}`);
  });

  it('sends the versioned body with a stable idempotency key and no signature without a key', () => {
    const req = webhookRequest(message(), 'http://127.0.0.1:9/hook', undefined);
    expect(req.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(req.headers['idempotency-key']).toBe('0123456789abcdef0123456789abcdef');
    expect(JSON.parse(req.body ?? '')).toEqual({
      version: 1,
      event_id: '0123456789abcdef0123456789abcdef',
      alert_id: 'lab:ready-drop:2026-12-01T22:00:00.000Z',
      kind: 'ready-drop',
      severity: 'high',
      cluster: 'lab',
      contexts: ['lab'],
      at: '2026-12-01T22:00:00.000Z',
      title: 'lab: 1 GPU node down',
      text: 'nuc1: KubeletNotReady <b>&</b> @everyone *bold*',
      language: 'en',
      nodes: [{ name: 'nuc1', reason: 'KubeletNotReady: PLEG is not healthy' }],
      counts: { before: 4, after: 3 },
    });
  });
});

describe('Slack-compatible', () => {
  it('is {"text": …} only, in mrkdwn with &, < and > escaped as Slack requires', () => {
    const body = JSON.parse(slackRequest(message(), 'http://127.0.0.1:9/s').body ?? '');
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toBe(
      '*lab: 1 GPU node down*\nnuc1: KubeletNotReady &lt;b&gt;&amp;&lt;/b&gt; @everyone *bold*',
    );
  });
});

describe('Discord', () => {
  it('is {"content": …} with mentions disabled, Markdown escaped', () => {
    const body = JSON.parse(discordRequest(message(), 'http://127.0.0.1:9/d').body ?? '');
    expect(body).toEqual({
      content: '**lab: 1 GPU node down**\nnuc1: KubeletNotReady <b\\>&</b\\> @everyone \\*bold\\*',
      allowed_mentions: { parse: [] },
    });
  });

  it('never exceeds 2000 characters, and never cuts a character in half', () => {
    const body = JSON.parse(
      discordRequest(message({ body: '🔥'.repeat(3000) }), 'http://127.0.0.1:9/d').body ?? '',
    );
    expect(body.content.length).toBeLessThanOrEqual(DISCORD_CONTENT_MAX);
    expect(body.content.endsWith('…')).toBe(true);
    expect(body.content.isWellFormed()).toBe(true);
  });
});

describe('ntfy', () => {
  it('publishes JSON to the root with priority, tags (emoji and the event tag), Markdown and a Bearer token', () => {
    const req = ntfyRequest(
      message(),
      { base: 'http://127.0.0.1:9', topic: 'gpu-alerts' },
      { token: 'tk_x' },
      null,
    );
    expect([req.method, req.url, req.headers.authorization]).toEqual([
      'POST',
      'http://127.0.0.1:9/',
      'Bearer tk_x',
    ]);
    expect(JSON.parse(req.body ?? '')).toEqual({
      topic: 'gpu-alerts',
      title: 'lab: 1 GPU node down',
      message: 'nuc1: KubeletNotReady \\<b\\>&\\</b\\> @everyone \\*bold\\*',
      priority: 4,
      tags: ['warning', eventTag('0123456789abcdef0123456789abcdef')],
      markdown: true,
    });
  });

  it('sends user and password as Basic, and keeps the message under 4096 bytes', () => {
    const req = ntfyRequest(
      message({ body: '한'.repeat(3000) }),
      { base: 'http://h', topic: 't' },
      { user: 'rig', password: 'pw' },
      null,
    );
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('rig:pw').toString('base64')}`);
    const sent = JSON.parse(req.body ?? '').message as string;
    expect(Buffer.byteLength(sent)).toBeLessThanOrEqual(NTFY_MESSAGE_BYTES_MAX);
    expect(utf8Cut('abc', 3)).toBe('abc');
  });
});
