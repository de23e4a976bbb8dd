/** The JSON-line logger: one clean, redacted line per entry, and a sink that throws cannot take it down. */
import { describe, expect, it } from 'vitest';
import { Logger } from './logger.ts';
import { REDACTED } from './redact.ts';

describe('Logger', () => {
  it('redacts secrets in the message and in every string field, and writes one clean line', () => {
    const lines: string[] = [];
    const log = new Logger({ write: (l) => lines.push(l) }, 'info', 'app', () => 0);
    log.warn('exec plugin failed: refresh_token=abc123XYZ\n\u001b[2Jfake line', {
      context: 'prod',
      message: 'client_secret s3cr3tValue99',
      nested: { why: ['password: hunter2'] },
      huge: `\u001b]0;title\u0007${'y'.repeat(2_000_000)}`,
    });
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(line).not.toMatch(/abc123XYZ|s3cr3tValue99|hunter2|\\u001b|\\u0007/);
    expect(line.length).toBeLessThan(3000);
    const entry = JSON.parse(line);
    expect(entry.msg).toBe(`exec plugin failed: refresh_token=${REDACTED} fake line`);
    expect(entry.context).toBe('prod');
  });

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
