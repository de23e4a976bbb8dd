/** Spawns a bench child process (probe.ts and friends) and reads back the one JSON line it prints. */
import { spawn } from 'node:child_process';
import path from 'node:path';

const HERE = path.dirname(new URL(import.meta.url).pathname);

export function runChild<T>(entry: string, args: unknown, nodeFlags: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags, '--import', 'tsx', path.join(HERE, entry), JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line) return reject(new Error(`${entry} exited with ${code}`));
      resolve(JSON.parse(line) as T);
    });
  });
}
