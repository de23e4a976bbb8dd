/**
 * The page a browser gets instead of the window when the guard does not know its session (the server
 * restarted with a new token, or the address has none): one sentence, in the first language the
 * browser's Accept-Language names that we have a catalog for, saying how to get back in.
 */
import { STABLE_TOKEN_COMMAND } from '../../common/browser-session.ts';
import { pickLocale } from '../../common/i18n/locales.ts';
import { translator } from '../../common/i18n/translator.ts';

const ACCEPT_LANGUAGE_MAX = 512;

/** The tags of an Accept-Language header, most preferred first (q-values honoured, capped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, ACCEPT_LANGUAGE_MAX)
    .split(',')
    .slice(0, 32)
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((l) => l.tag !== '' && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function refusedPage(acceptLanguage: string | undefined): string {
  const tr = translator(pickLocale(acceptedLanguages(acceptLanguage)));
  const sentence = escapeHtml(tr.t('browserLink.refusedPage', { command: STABLE_TOKEN_COMMAND })).replace(
    escapeHtml(STABLE_TOKEN_COMMAND),
    `<code>${escapeHtml(STABLE_TOKEN_COMMAND)}</code>`,
  );
  return `<!doctype html>
<html lang="${tr.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(tr.t('app.name'))}</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:15vh auto;padding:0 1rem;color:#16181d}
code{font-family:ui-monospace,monospace;background:#eef0f3;padding:0 .25em;border-radius:3px}
@media (prefers-color-scheme:dark){body{background:#0f1116;color:#e6e8ec}code{background:#222630}}</style>
</head><body><h1>${escapeHtml(tr.t('app.name'))}</h1><p data-testid="refused">${sentence}</p></body></html>
`;
}
