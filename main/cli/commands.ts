/** The table of `gpu-fleet` commands; each is imported only when it runs. */
import { registerCommand } from './main.ts';

export function registerAllCommands(): void {
  registerCommand('contexts', async () => (await import('./commands/contexts.ts')).contextsCommand);
  registerCommand('scan', async () => (await import('./commands/scan.ts')).scanCommand);
  registerCommand('free', async () => (await import('./commands/free.ts')).freeCommand);
  registerCommand('fit', async () => (await import('./commands/fit.ts')).fitCommand);
  registerCommand('describe', async () => (await import('./commands/describe.ts')).describeCommand);
  registerCommand('top', async () => (await import('./commands/top.ts')).topCommand);
  registerCommand('history', async () => (await import('./commands/history.ts')).historyCommand);
  registerCommand('watch', async () => (await import('./commands/watch.ts')).watchCommand);
  registerCommand('serve', async () => (await import('./commands/serve.ts')).serveCommand);
  registerCommand('sim', async () => (await import('./commands/sim.ts')).simCommand);
  registerCommand('use-context', async () => (await import('./commands/use-context.ts')).useContextCommand);
  registerCommand('controller', async () => (await import('./commands/controller.ts')).controllerCommand);
  registerCommand('notify', async () => (await import('./commands/notify.ts')).notifyCommand);
  registerCommand('crd', async () => (await import('./commands/crd.ts')).crdCommand);
}
