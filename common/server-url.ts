/**
 * A server or proxy address as it may be shown or logged: a kubeconfig's `server:` or `proxy-url:` (and
 * a redirect's Location) can carry credentials in the userinfo (`https://admin:pw@host`) or the query
 * (`?token=…`). `displayServerUrl` keeps scheme://host:port/path only.
 */
import { clusterText } from './cluster-text.ts';

/** The longest address shown. */
const URL_MAX = 200;

/**
 * `scheme://host[:port][/path]` without userinfo, query or fragment; a trailing "/" is dropped. A value
 * that is not a URL loses everything up to an "@" and from a "?" or "#" on, and passes the text gate.
 */
export function displayServerUrl(value: string, base?: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value, base);
  } catch {
    url = null;
  }
  if (url === null || url.host === '') {
    const bare = value.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/]*@/i, '$1');
    return clusterText(bare, URL_MAX);
  }
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return clusterText(`${url.protocol}//${url.host}${path}`, URL_MAX);
}
