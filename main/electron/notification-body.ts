/**
 * A notification body as the OS shows it. On Linux the notification daemon (libnotify's spec) reads
 * the body as markup, so a `<` or `&` from the cluster (a node's NotReady message) would be taken as a
 * tag or an entity, or make the daemon drop the body: they are escaped there, and only there.
 */
export function notificationBody(body: string, platform: NodeJS.Platform): string {
  if (platform !== 'linux') return body;
  return body.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
