/** The table of `gpu-fleet` commands; each is imported only when it runs. */

export function registerAllCommands(): void {
  // Commands are registered here as the engine, simulator and window land.
}
