/**
 * The sentence of a failed host call. Electron wraps a handler's error as "Error invoking remote method
 * 'x': Error: …"; the window shows only the host's own sentence (browser mode sends it bare).
 */
export function ipcErrorText(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  return raw.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, '');
}
