/**
 * `gpu-fleet sim` serves the fault-injection endpoints (POST /sim/control/<verb>) only with --controls:
 * without it the path answers 404, as a real API server does, even to the admin's token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rawExchange, statusOf } from '../../../test/faults/raw-http.ts';
import { startCli } from '../../../test/helpers/cli-harness.ts';
import { pollUntil } from '../../../test/helpers/poll.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts `gpu-fleet sim`, asks its control path as the admin, stops it; the answer's status. */
async function controlStatus(extra: string[]): Promise<number | null> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-sim-controls-'));
  dirs.push(dir);
  const file = path.join(dir, 'config');
  const run = startCli(['sim', '--scenario', 'empty', '--kubeconfig-out', file, ...extra]);
  try {
    // It prints its address, then writes the kubeconfig.
    await pollUntil(() => run.stdout().includes('listening on') && fs.statSync(file).size > 0, 'the sim');
    const url = new URL(/listening on (\S+)/.exec(run.stdout())?.[1] ?? '');
    const config = parse(fs.readFileSync(file, 'utf8')) as {
      users: { name: string; user: { token: string } }[];
    };
    const token = config.users.find((u) => u.name.includes('admin'))?.user.token ?? '';
    expect(token).not.toBe('');
    const answer = await rawExchange(
      { port: Number(url.port), tls: true },
      `POST /sim/control/listNodeNames HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]`,
    );
    return statusOf(answer);
  } finally {
    run.stop();
    expect(await run.exit).toBe(0);
  }
}

describe('gpu-fleet sim', () => {
  it('has no /sim/control endpoint without --controls', async () => {
    expect(await controlStatus([])).toBe(404);
  });

  it('serves the controls to the admin with --controls', async () => {
    expect(await controlStatus(['--controls'])).toBe(200);
  });
});
