/**
 * `gpu-fleet sim`: run the built-in Kubernetes API simulator in the foreground until Ctrl-C. Its
 * kubeconfig goes to a new file only: `--kubeconfig-out` could name `~/.kube/config`, so an existing
 * file is refused (opened with `wx`) unless `--force` says to replace it. Without `--kubeconfig-out` the
 * kubeconfig goes to a private temporary folder, removed when the simulator stops. Either way the command
 * says where the file is and what to run next.
 */
import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runSimCommand } from '../../../sim/cli.ts';
import { SIM_CONTEXTS } from '../../../sim/kubeconfig.ts';
import { parseFlags } from '../flags.ts';
import { CliError, type CliIo } from '../io.ts';

/**
 * Opens the kubeconfig file before the simulator starts, so a refusal costs nothing. With --force the
 * file is opened without truncating it ('a'): it is emptied only once there is a kubeconfig to write, so a
 * simulator that cannot start (a port in use) leaves the old file as it was.
 */
async function openKubeconfigOut(file: string, force: boolean): Promise<FileHandle> {
  try {
    return await open(file, force ? 'a' : 'wx', 0o600);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST')
      throw new CliError(
        `${file} already exists; choose a new file for --kubeconfig-out, or add --force to overwrite it`,
      );
    throw new CliError(
      `cannot write the kubeconfig to ${file} (${typeof code === 'string' ? code : 'error'})`,
    );
  }
}

export async function simCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    {
      scenario: { type: 'string' },
      port: { type: 'string' },
      'kubeconfig-out': { type: 'string' },
      force: { type: 'boolean' },
      controls: { type: 'boolean' },
    },
    'sim',
  );
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid port "${flags.port}"`);
  const out = flags['kubeconfig-out'];
  const file = out ? await openKubeconfigOut(out, flags.force === true) : null;
  let sim: Awaited<ReturnType<typeof runSimCommand>> | undefined;
  try {
    sim = await runSimCommand(
      { scenario: flags.scenario ?? 'homelab', port, httpControls: flags.controls === true },
      io.stdout,
    );
    if (file) {
      // Opened for appending: after the truncate every write lands at the start.
      await file.truncate(0);
      await file.writeFile(sim.kubeconfigYaml());
      await file.chmod(0o600);
    }
  } catch (error) {
    await file?.close();
    await sim?.close();
    // A file we created for this run is not left behind empty.
    if (out && flags.force !== true) await rm(out, { force: true });
    throw error;
  }
  await file?.close();
  // No file named: a private one for this run (0600 in a 0700 folder), removed on Ctrl-C.
  const temp = out ? null : await mkdtemp(path.join(os.tmpdir(), 'gpu-fleet-sim-'));
  const kubeconfig = out ?? path.join(temp ?? '', 'config');
  try {
    if (temp) await writeFile(kubeconfig, sim.kubeconfigYaml(), { mode: 0o600 });
    io.stdout.write(nextSteps(kubeconfig, temp !== null));
    await io.stopSignal;
  } finally {
    await sim.close();
    if (temp) await rm(temp, { recursive: true, force: true });
  }
  return 0;
}

/** Where the kubeconfig is and what to run against it, printed once the simulator listens. */
export function nextSteps(kubeconfig: string, removedOnExit: boolean): string {
  const q = /^[\w./:@-]+$/.test(kubeconfig) ? kubeconfig : `'${kubeconfig.replaceAll("'", "'\\''")}'`;
  return [
    `Kubeconfig written to ${kubeconfig} (contexts ${SIM_CONTEXTS.join(', ')}).`,
    'Try it from another terminal:',
    `  npx gpu-fleet scan --kubeconfig ${q}`,
    `  npx gpu-fleet watch --kubeconfig ${q}`,
    `Ctrl-C stops the simulator${removedOnExit ? ' and removes that file' : ''}.`,
    '',
  ].join('\n');
}
