/**
 * Pure: chat incoming webhooks. Slack (and the services that copy its incoming webhooks, e.g. Mattermost
 * and Rocket.Chat) take `{"text": …}` in mrkdwn, where `&`, `<` and `>` must be escaped as entities;
 * Discord takes `{"content": …}` in its Markdown, at most 2000 characters, and `allowed_mentions` with an
 * empty `parse` so a name from the cluster such as "@everyone" never pings anyone.
 */
import type { ForwardMessage } from './message.ts';
import type { OutboundRequest } from './outbound.ts';

/** Slack cuts text past 40,000 characters; a GPU alert has no business near that. */
export const SLACK_TEXT_MAX = 4000;
/** Discord refuses content longer than 2000 characters (UTF-16 code units, as JS counts them). */
export const DISCORD_CONTENT_MAX = 2000;

export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function discordEscape(text: string): string {
  return text.replace(/[\\*_~`|>[\]#]/g, (c) => `\\${c}`);
}

function fitted(head: string, body: string, max: number): string {
  const all = `${head}\n${body}`;
  if (all.length <= max) return all;
  // Cut at a code-point boundary: a lone surrogate half would make the JSON invalid UTF-8 text.
  const chars = [...all];
  let out = '';
  for (const c of chars) {
    if (out.length + c.length > max - 1) break;
    out += c;
  }
  return `${out}…`;
}

export function slackRequest(m: ForwardMessage, url: string): OutboundRequest {
  const text = fitted(`*${slackEscape(m.title)}*`, slackEscape(m.body), SLACK_TEXT_MAX);
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  };
}

export function discordRequest(m: ForwardMessage, url: string): OutboundRequest {
  const content = fitted(`**${discordEscape(m.title)}**`, discordEscape(m.body), DISCORD_CONTENT_MAX);
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content, allowed_mentions: { parse: [] } }),
  };
}
