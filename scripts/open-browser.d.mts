// Types of open-browser.mjs (a plain Node script, so that `npm start` needs no TypeScript loader).
export type BrowserOpener = { command: string; args: string[]; verbatim?: boolean } | { skip: string };
export function browserOpener(
  url: string,
  platform?: NodeJS.Platform,
  env?: NodeJS.ProcessEnv,
): BrowserOpener;
export function openBrowser(url: string): Promise<string | null>;
