/**
 * Pure: the generic webhook's request: a POST of the versioned JSON body documented in
 * docs/forwarding.md (version 1), with an Idempotency-Key (the event id, the same on every retry) and,
 * when the target has a signing key, `X-GPU-Fleet-Signature: sha256=<hex HMAC-SHA256 of the exact body>`.
 */
import { createHmac } from 'node:crypto';
import type { ForwardMessage } from './message.ts';
import type { OutboundRequest } from './outbound.ts';

export const WEBHOOK_VERSION = 1;
export const SIGNATURE_HEADER = 'x-gpu-fleet-signature';

/** The body's shape, version 1. Fields are only ever added; a change of meaning is a new version. */
export interface WebhookBody {
  version: 1;
  event_id: string;
  alert_id: string;
  kind: ForwardMessage['kind'];
  severity: ForwardMessage['severity'];
  cluster: string;
  contexts: string[];
  at: string;
  title: string;
  text: string;
  language: string;
  nodes: { name: string; reason: string | null }[];
  counts: { before: number | null; after: number | null };
}

export function webhookBody(m: ForwardMessage): WebhookBody {
  return {
    version: WEBHOOK_VERSION,
    event_id: m.eventId,
    alert_id: m.alertId,
    kind: m.kind,
    severity: m.severity,
    cluster: m.context,
    contexts: m.context === '' ? [] : [m.context],
    at: m.at,
    title: m.title,
    text: m.body,
    language: m.language,
    nodes: m.nodes,
    counts: { before: m.before, after: m.after },
  };
}

export function signature(body: string, key: string): string {
  return `sha256=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`;
}

export function webhookRequest(
  m: ForwardMessage,
  url: string,
  signingKey: string | undefined,
): OutboundRequest {
  const body = JSON.stringify(webhookBody(m));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'idempotency-key': m.eventId,
    'x-gpu-fleet-event': m.kind,
  };
  if (signingKey !== undefined && signingKey !== '') headers[SIGNATURE_HEADER] = signature(body, signingKey);
  return { method: 'POST', url, headers, body };
}
