// Types of cli-build.mjs (a plain Node script: it runs before anything is built).
export const ROOT: string;
export const CLI_ENTRY: string;
export function cliIsStale(): boolean;
export function viteBin(): string | null;
export function buildCli(opts?: { quiet?: boolean }): string | null;
