/** The size-capped rotating log file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RotatingFileSink } from './rotating-file.ts';

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
