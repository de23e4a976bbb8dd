/** The table of `gpu-fleet` commands; each is imported only when it runs. */
import { registerCommand } from './main.ts';

export function registerAllCommands(): void {
  registerCommand('crd', async () => (await import('./commands/crd.ts')).crdCommand);
}
