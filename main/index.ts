/** Electron entry: lifecycle only. Everything else is set up by main/electron/desktop.ts. */
import { runDesktop } from './electron/desktop.ts';

runDesktop().catch((error: unknown) => {
  console.error('GPU Fleet failed to start:', error);
  process.exitCode = 1;
});
