/**
 * Fault matrix, hostile input to the real `gpu-fleet` process (spawned, as a user runs it): command names
 * that are Object.prototype keys are unknown commands (one sentence, exit 1, no stack trace), and one bad
 * request line to `serve` or `sim` leaves the process running and answering.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawExchange, statusOf } from './raw-http.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();
const BIN = path.resolve('bin/gpu-fleet.mjs');

function env(): NodeJS.ProcessEnv {
  const home = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-home-'));
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
}

describe('command names from the command line', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    '`gpu-fleet %s --help` is an unknown command in one sentence',
    (name) => {
      const r = spawnSync(process.execPath, [BIN, name, '--help'], { env: env(), encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: unknown command "${name}" for "gpu-fleet"\nRun 'gpu-fleet --help' for usage.\n`,
      );
    },
  );
});

/** Starts a long-running command and resolves with the first URL it prints. */
function startLong(args: string[]): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  cleanup(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(https?:\/\/127\.0\.0\.1:\d+\S*)/.exec(out);
      if (m?.[1]) resolve({ child, url: new URL(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${out}`)));
  });
}

/** Asks the process to stop as Ctrl-C does and resolves with its exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('one bad request line to a running process', () => {
  it('`serve --demo` keeps running and answering', { timeout: 60_000 }, async () => {
    const { child, url } = await startLong(['serve', '--demo', '--port', '0']);
    const port = Number(url.port);
    const token = url.searchParams.get('token') ?? '';
    const headers = `Host: 127.0.0.1:${port}\r\nCookie: gpu-fleet-${port}=${token}\r\nConnection: close\r\n`;
    for (const line of ['GET //[ HTTP/1.1', 'GET /%zz HTTP/1.1', 'POST //[ HTTP/1.1']) {
      const answer = await rawExchange({ port }, `${line}\r\n${headers}\r\n`);
      expect(statusOf(answer)).toBeGreaterThanOrEqual(400);
      expect(statusOf(answer)).toBeLessThan(500);
    }
    const ok = await rawExchange(
      { port },
      `POST /api/invoke/app:info HTTP/1.1\r\n${headers}Content-Length: 2\r\n\r\n[]`,
    );
    expect(statusOf(ok)).toBe(200);
    expect(child.exitCode).toBeNull();
    expect(await stop(child)).toBe(0);
  });

  it('`sim` keeps running and answering', { timeout: 60_000 }, async () => {
    const { child, url } = await startLong(['sim', '--port', '0']);
    const port = Number(url.port);
    for (const line of ['GET //[ HTTP/1.1', 'GET /%zz HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
      const answer = await rawExchange(
        { port, tls: true },
        `${line}\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(answer)).toBeGreaterThanOrEqual(400);
      expect(statusOf(answer)).toBeLessThan(500);
    }
    const ok = await rawExchange(
      { port, tls: true },
      'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(statusOf(ok)).not.toBeNull();
    expect(child.exitCode).toBeNull();
    expect(await stop(child)).toBe(0);
  });
});
