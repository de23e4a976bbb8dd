import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Logger } from './logger.ts';
import { REDACTED, redact } from './redact.ts';
import { RotatingFileSink } from './rotating-file.ts';

describe('redact', () => {
  it.each([
    [{ token: 'abc' }, { token: REDACTED }],
    [{ headers: { Authorization: 'Bearer x' } }, { headers: { Authorization: REDACTED } }],
    [{ msg: 'Bearer abc.def' }, { msg: REDACTED }],
    [{ data: '-----BEGIN PRIVATE KEY-----\nMII' }, { data: REDACTED }],
    [{ jwt: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig' }, { jwt: REDACTED }],
    [
      { context: 'home', ready: 3 },
      { context: 'home', ready: 3 },
    ],
  ])('%o → %o', (input, expected) => {
    expect(redact(input)).toEqual(expected);
  });
});

describe('Logger', () => {
  it('writes one JSON line per entry above the level, redacted, with its component', () => {
    const lines: string[] = [];
    const log = new Logger({ write: (l) => lines.push(l) }, 'info', 'app', () =>
      Date.UTC(2026, 10, 29),
    ).child('engine');
    log.debug('hidden');
    log.info('connected', { context: 'home', token: 'secret' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      at: '2026-11-29T00:00:00.000Z',
      level: 'info',
      component: 'engine',
      msg: 'connected',
      context: 'home',
      token: REDACTED,
    });
  });

  it('survives a sink that throws', () => {
    const log = new Logger({
      write: () => {
        throw new Error('disk full');
      },
    });
    expect(() => log.error('x')).not.toThrow();
  });
});

describe('RotatingFileSink', () => {
  it('caps the file and keeps a bounded number of old ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-log-'));
    const sink = new RotatingFileSink(path.join(dir, 'gpu-fleet.log'), 100, 2);
    for (let i = 0; i < 20; i++) sink.write(`${'x'.repeat(40)}\n`);
    expect(fs.readdirSync(dir).sort()).toEqual(['gpu-fleet.log', 'gpu-fleet.log.1', 'gpu-fleet.log.2']);
    for (const f of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, f)).size).toBeLessThanOrEqual(100);
    expect(fs.statSync(path.join(dir, 'gpu-fleet.log')).mode & 0o077).toBe(0);
  });
});
