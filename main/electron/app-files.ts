/**
 * Answers a request for the app's own scheme from the built renderer folder: only our host, no path
 * out of the folder (main/web/static-files.ts refuses traversal and bad encodings for both hosts),
 * no-sniff. No 'electron' import: app-protocol.ts hands it Electron's requests.
 */
import { RENDERER_CSP, readStatic } from '../web/static-files.ts';
import { APP_HOST, APP_SCHEME } from './app-origin.ts';

export async function serveAppFile(root: string, url: string): Promise<Response> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text(400, 'Bad request: not a URL.');
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return text(404, 'not found');
  const result = await readStatic(root, parsed.pathname);
  if (result.status !== 200) return text(result.status, result.body);
  return new Response(new Uint8Array(result.body), {
    status: 200,
    headers: {
      'content-type': result.type,
      'x-content-type-options': 'nosniff',
      ...(result.type.startsWith('text/html') ? { 'content-security-policy': RENDERER_CSP } : {}),
    },
  });
}

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
