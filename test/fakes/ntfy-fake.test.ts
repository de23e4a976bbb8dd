/**
 * The fake ntfy server against the recorded transcripts (../shared/ntfy): each case is one step, with
 * the status and the body the real ntfy 2.11 sent (ids and times aside, which are random or now).
 */
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { NtfyFake } from './ntfy-fake.ts';

const TOKEN = 'tk_abcdefghijklmnopqrstuvwxyz012';
const BASIC = `Basic ${Buffer.from('rig:s3cret-pass').toString('base64')}`;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with header values sent as raw bytes (so UTF-8 titles go out as the transcript's curl sent them). */
function request(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Reply> {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) raw[k] = Buffer.from(v, 'utf8').toString('latin1');
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers: raw, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    // A Buffer: a string body would make Node write the headers in UTF-8 along with it.
    req.end(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  });
}

const withoutIdTime = (line: string) => line.replace(/"id":"[A-Za-z0-9]{12}","time":\d+,"expires":\d+,/, '');

let clock: ManualClock;
let fake: NtfyFake;
const bearer = { authorization: `Bearer ${TOKEN}` };

beforeEach(async () => {
  clock = new ManualClock();
  fake = await NtfyFake.start({
    now: () => clock.now(),
    users: [{ name: 'rig', password: 's3cret-pass', token: TOKEN, topics: 'gpu-*' }],
  });
});
afterEach(async () => {
  await fake.stop();
});

describe('publish (01)', () => {
  it('step 1: text body with Title, Priority high, Tags, Click, Markdown', async () => {
    const r = await request(
      fake.url,
      'POST',
      '/gpu-alerts',
      {
        ...bearer,
        Title: 'GPU 0 overheating',
        Priority: 'high',
        Tags: 'warning,gpu',
        Click: 'https://example.invalid/x',
        Markdown: 'yes',
      },
      'GPU 0 temperature **91 C** (threshold 85 C)',
    );
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(withoutIdTime(r.body)).toBe(
      '{"event":"message","topic":"gpu-alerts","title":"GPU 0 overheating","message":"GPU 0 temperature **91 C** (threshold 85 C)","priority":4,"tags":["warning","gpu"],"click":"https://example.invalid/x","content_type":"text/markdown"}\n',
    );
    const m = JSON.parse(r.body);
    expect(m.id).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(m.time).toBe(Math.floor(clock.now() / 1000));
    expect(m.expires).toBe(m.time + 43_200);
  });

  it('step 3: basic auth, no optional headers: only id, time, expires, event, topic, message', async () => {
    const r = await request(
      fake.url,
      'POST',
      '/gpu-alerts',
      { authorization: BASIC },
      'job 4711 finished on gpu-node-1',
    );
    expect(withoutIdTime(r.body)).toBe(
      '{"event":"message","topic":"gpu-alerts","message":"job 4711 finished on gpu-node-1"}\n',
    );
  });

  it('step 4: X- aliases; an explicit Priority 3 is echoed', async () => {
    const a = await request(
      fake.url,
      'POST',
      '/gpu-alerts',
      {
        ...bearer,
        'X-Title': 'GPU 2 fell off the bus',
        'X-Priority': '5',
        'X-Tags': 'rotating_light',
        'X-Markdown': 'true',
      },
      'Xid 79 on GPU 2',
    );
    expect(withoutIdTime(a.body)).toBe(
      '{"event":"message","topic":"gpu-alerts","title":"GPU 2 fell off the bus","message":"Xid 79 on GPU 2","priority":5,"tags":["rotating_light"],"content_type":"text/markdown"}\n',
    );
    const b = await request(fake.url, 'POST', '/gpu-alerts', { ...bearer, Priority: '3' }, 'x');
    expect(JSON.parse(b.body).priority).toBe(3);
  });

  it('step 5: JSON to "/" with an action: actions get an id and clear:false, before content_type', async () => {
    const r = await request(
      fake.url,
      'POST',
      '/',
      bearer,
      '{"topic":"gpu-json","title":"GPU 3 throttling","message":"Power cap reached on GPU 3","priority":4,"tags":["warning","gpu"],"click":"https://example.invalid/z","markdown":true,"actions":[{"action":"view","label":"Open","url":"https://example.invalid"}]}',
    );
    expect(withoutIdTime(r.body).replace(/"id":"[A-Za-z0-9]{10}"/, '"id":"X"')).toBe(
      '{"event":"message","topic":"gpu-json","title":"GPU 3 throttling","message":"Power cap reached on GPU 3","priority":4,"tags":["warning","gpu"],"click":"https://example.invalid/z","actions":[{"id":"X","action":"view","label":"Open","clear":false,"url":"https://example.invalid"}],"content_type":"text/markdown"}\n',
    );
  });

  it.each([
    ['raw UTF-8 (step 6)', 'GPU 경고: 온도 91도', 'GPU 경고: 온도 91도'],
    ['RFC 2047 B (step 7)', '=?UTF-8?B?R1BVIOa4qeW6puitpuWRig==?=', 'GPU 温度警告'],
    [
      'RFC 2047 Q (step 8)',
      '=?UTF-8?Q?GPU_=E6=B8=A9=E5=BA=A6=E3=81=8C=E9=AB=98=E3=81=84?=',
      'GPU 温度が高い',
    ],
  ])('non-ASCII title as %s', async (_name, header, title) => {
    const r = await request(fake.url, 'POST', '/gpu-utf8', { ...bearer, Title: header }, '한국어 본문');
    expect(JSON.parse(r.body)).toMatchObject({ title, message: '한국어 본문' });
    expect(r.body).toContain(title); // raw UTF-8, not \u-escaped
  });

  it('step 10: query parameters title and priority', async () => {
    const r = await request(
      fake.url,
      'POST',
      '/gpu-utf8?title=%EA%B2%BD%EA%B3%A0&priority=2',
      bearer,
      'via query',
    );
    expect(withoutIdTime(r.body)).toBe(
      '{"event":"message","topic":"gpu-utf8","title":"경고","message":"via query","priority":2}\n',
    );
  });

  it('02 steps 24, 26, 28: GET …/publish publishes; JSON to a topic is text; an empty body is "triggered"', async () => {
    const g = await request(
      fake.url,
      'GET',
      '/gpu-errors/publish?message=published+via+GET&title=GET&priority=low',
      bearer,
    );
    expect(withoutIdTime(g.body)).toBe(
      '{"event":"message","topic":"gpu-errors","title":"GET","message":"published via GET","priority":2}\n',
    );
    const j = await request(
      fake.url,
      'POST',
      '/gpu-errors',
      { ...bearer, 'content-type': 'application/json' },
      '{"topic":"gpu-json","message":"hello"}',
    );
    expect(JSON.parse(j.body).message).toBe('{"topic":"gpu-json","message":"hello"}');
    const e = await request(fake.url, 'POST', '/gpu-errors', bearer);
    expect(JSON.parse(e.body).message).toBe('triggered');
  });
});

describe('poll (01 steps 11-16)', () => {
  it('returns ndjson oldest first, since=<id> exclusive, tags and priority filters, and an empty body for none', async () => {
    const ids: string[] = [];
    for (const [p, tags] of [
      ['4', 'a'],
      ['5', 'a,b'],
      ['2', 'b'],
    ] as const)
      ids.push(
        JSON.parse(
          (await request(fake.url, 'POST', '/gpu-alerts', { ...bearer, Priority: p, Tags: tags }, `m${p}`))
            .body,
        ).id,
      );
    const all = await request(fake.url, 'GET', '/gpu-alerts/json?poll=1', bearer);
    expect(all.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(
      all.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(ids);
    const after = await request(fake.url, 'GET', `/gpu-alerts/json?poll=1&since=${ids[0]}`, bearer);
    expect(
      after.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(ids.slice(1));
    const tagged = await request(fake.url, 'GET', '/gpu-alerts/json?poll=1&tags=a,b', bearer);
    expect(
      tagged.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([ids[1]]);
    const urgent = await request(fake.url, 'GET', '/gpu-alerts/json?poll=1&priority=5', bearer);
    expect(urgent.body.trim().split('\n')).toHaveLength(1);
    const empty = await request(fake.url, 'GET', '/gpu-empty/json?poll=1', bearer);
    expect([empty.status, empty.headers['content-length'], empty.body]).toEqual([200, '0', '']);
    const latest = await request(fake.url, 'GET', '/gpu-alerts/json?poll=1&since=latest', bearer);
    expect(latest.body).toBe(
      '{"code":40008,"http":400,"error":"invalid since parameter","link":"https://ntfy.sh/docs/subscribe/api/#fetch-cached-messages"}\n',
    );
  });
});

describe('errors and limits (02)', () => {
  it.each([
    [
      'step 1: anonymous under deny-all',
      'POST',
      '/gpu-errors',
      {},
      'x',
      403,
      '{"code":40301,"http":403,"error":"forbidden","link":"https://ntfy.sh/docs/publish/#authentication"}\n',
    ],
    [
      'step 3: topic outside the ACL',
      'POST',
      '/other-topic',
      bearer,
      'x',
      403,
      '{"code":40301,"http":403,"error":"forbidden","link":"https://ntfy.sh/docs/publish/#authentication"}\n',
    ],
    [
      'step 4: unknown token',
      'POST',
      '/gpu-errors',
      { authorization: 'Bearer tk_wrongwrongwrongwrongwrongwr' },
      'x',
      401,
      '{"code":40101,"http":401,"error":"unauthorized","link":"https://ntfy.sh/docs/publish/#authentication"}\n',
    ],
    [
      'step 6: lower-case bearer',
      'POST',
      '/gpu-errors',
      { authorization: `bearer ${TOKEN}` },
      'x',
      401,
      '{"code":40101,"http":401,"error":"unauthorized","link":"https://ntfy.sh/docs/publish/#authentication"}\n',
    ],
    [
      'step 6: "Token abc" is anonymous',
      'POST',
      '/gpu-errors',
      { authorization: 'Token abc' },
      'x',
      403,
      '{"code":40301,"http":403,"error":"forbidden","link":"https://ntfy.sh/docs/publish/#authentication"}\n',
    ],
    [
      'step 7: a 100-character topic',
      'POST',
      `/gpu-${'a'.repeat(96)}`,
      bearer,
      'x',
      404,
      '{"code":40401,"http":404,"error":"page not found"}\n',
    ],
    [
      'step 9: an extra path segment',
      'POST',
      '/gpu-errors/sub',
      bearer,
      'x',
      404,
      '{"code":40401,"http":404,"error":"page not found"}\n',
    ],
    [
      'step 10: a reserved topic',
      'POST',
      '/docs',
      bearer,
      'x',
      400,
      '{"code":40010,"http":400,"error":"invalid request: topic name is not allowed"}\n',
    ],
    [
      'step 12: a 4096-byte body',
      'POST',
      '/gpu-big',
      bearer,
      'a'.repeat(4096),
      400,
      '{"code":40014,"http":400,"error":"invalid request: attachments not allowed","link":"https://ntfy.sh/docs/config/#attachments"}\n',
    ],
    [
      'step 16: a JSON body of 8192 bytes',
      'POST',
      '/',
      bearer,
      `{"topic":"gpu-big","message":"${'a'.repeat(8192 - 32)}"}`,
      413,
      '{"code":41303,"http":413,"error":"JSON body too large"}\n',
    ],
    [
      'step 17: Priority 9',
      'POST',
      '/gpu-errors',
      { ...bearer, Priority: '9' },
      'x',
      400,
      '{"code":40007,"http":400,"error":"invalid priority parameter","link":"https://ntfy.sh/docs/publish/#message-priority"}\n',
    ],
    [
      'step 20: malformed JSON',
      'POST',
      '/',
      bearer,
      '{"topic":"gpu-errors","message":',
      400,
      '{"code":40024,"http":400,"error":"invalid request: request body must be valid JSON"}\n',
    ],
    [
      'step 20: a wrong type',
      'POST',
      '/',
      bearer,
      '{"topic":"gpu-errors","priority":"4"}',
      400,
      '{"code":40024,"http":400,"error":"invalid request: request body must be valid JSON"}\n',
    ],
    [
      'step 21: JSON without a topic',
      'POST',
      '/',
      bearer,
      '{"message":"no topic"}',
      400,
      '{"code":40009,"http":400,"error":"invalid request: topic invalid"}\n',
    ],
    [
      'step 22: a view action without url',
      'POST',
      '/',
      bearer,
      '{"topic":"gpu-errors","message":"x","actions":[{"action":"view","label":"Open"}]}',
      400,
      `{"code":40018,"http":400,"error":"invalid request: actions invalid; parameter 'url' is required for action 'view'","link":"https://ntfy.sh/docs/publish/#action-buttons"}\n`,
    ],
    [
      'step 25: DELETE',
      'DELETE',
      '/gpu-errors',
      bearer,
      undefined,
      404,
      '{"code":40401,"http":404,"error":"page not found"}\n',
    ],
  ] as const)('%s', async (_name, method, path, headers, body, status, text) => {
    const r = await request(fake.url, method, path, headers, body);
    expect([r.status, r.body]).toEqual([status, text]);
    expect(r.headers['retry-after']).toBeUndefined();
    expect(r.headers['www-authenticate']).toBeUndefined();
  });

  it('step 11: a 4095-byte body is the largest accepted, and its answer comes chunked', async () => {
    const r = await request(fake.url, 'POST', '/gpu-big', bearer, 'a'.repeat(4095));
    expect(r.status).toBe(200);
    expect(r.headers['transfer-encoding']).toBe('chunked');
  });

  it('steps 30-31: 60 requests, then 429 42901 without Retry-After; one more every 5 s', async () => {
    for (let i = 1; i <= 60; i++)
      expect((await request(fake.url, 'POST', '/gpu-rate', bearer, `rate test ${i}`)).status).toBe(200);
    const limited = await request(fake.url, 'POST', '/gpu-rate', bearer, 'rate test 61');
    expect([limited.status, limited.body]).toEqual([
      429,
      '{"code":42901,"http":429,"error":"limit reached: too many requests","link":"https://ntfy.sh/docs/publish/#limitations"}\n',
    ]);
    expect(limited.headers['retry-after']).toBeUndefined();
    clock.advance(5_500);
    expect((await request(fake.url, 'POST', '/gpu-rate', bearer, 'after 5.5 s')).status).toBe(200);
    expect((await request(fake.url, 'POST', '/gpu-rate', bearer, 'immediately after')).status).toBe(429);
    expect((await request(fake.url, 'GET', '/gpu-rate/json?poll=1', bearer)).status).toBe(429);
  });

  it('step 32: 30 auth failures, then 42909 even for the valid token; anonymous still gets 403', async () => {
    const wrong = { authorization: 'Bearer tk_wrongwrongwrongwrongwrongwr' };
    for (let i = 0; i < 30; i++)
      expect((await request(fake.url, 'POST', '/gpu-errors', wrong, 'x')).status).toBe(401);
    const locked =
      '{"code":42909,"http":429,"error":"limit reached: too many auth failures","link":"https://ntfy.sh/docs/publish/#limitations"}\n';
    expect((await request(fake.url, 'POST', '/gpu-errors', wrong, 'x')).body).toBe(locked);
    expect(
      (await request(fake.url, 'POST', '/gpu-errors', bearer, 'valid token during auth lockout')).body,
    ).toBe(locked);
    expect((await request(fake.url, 'POST', '/gpu-errors', {}, 'anonymous during auth lockout')).status).toBe(
      403,
    );
  });

  it('step 33: a stopped server refuses the connection', async () => {
    const url = fake.url;
    await fake.stop();
    await expect(request(url, 'POST', '/gpu-errors', bearer, 'nobody home')).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    fake = await NtfyFake.start({ now: () => clock.now(), users: [] });
  });
});
