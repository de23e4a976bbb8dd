/**
 * The engine as a host of the typed contract: one handler per invoke channel and a push stream.
 * Electron's IPC routes and the loopback web bridge both serve this, through `dispatchInvoke`,
 * which is the single place where untrusted arguments are validated.
 */

import { type ErrorKind, toErrorInfo } from '../../common/errors.ts';
import type { HostReply } from '../../common/host-protocol.ts';
import {
  ARG_SCHEMAS,
  type InvokeArgs,
  type InvokeChannel,
  type InvokeResults,
  type PushChannel,
  type PushEvents,
  type PushSender,
} from '../../common/ipc.ts';
import { check } from '../../common/validate.ts';
import type { Words } from '../../common/words.ts';

export type InvokeHandlers = {
  [C in InvokeChannel]: (...args: InvokeArgs<C>) => Promise<InvokeResults[C]> | InvokeResults[C];
};

export type PushListener = PushSender;

export interface FleetHost {
  handlers: InvokeHandlers;
  onPush(listener: PushListener): () => void;
}

export type DispatchResult =
  | { ok: true; value: unknown }
  /** `kind` names the failure for the window: a handler's own (a KubeError's, a WriteError's) or the contract's. */
  | { ok: false; status: 400 | 404 | 500; kind: ErrorKind; error: string; words?: Words };

function isChannel(name: string): name is InvokeChannel {
  return Object.hasOwn(ARG_SCHEMAS, name);
}

export async function dispatchInvoke(
  handlers: InvokeHandlers,
  channel: string,
  args: unknown,
): Promise<DispatchResult> {
  if (!isChannel(channel))
    return { ok: false, status: 404, kind: 'refused', error: `unknown channel "${channel}"` };
  const parsed = check(ARG_SCHEMAS[channel], args);
  if (!parsed.ok)
    return { ok: false, status: 400, kind: 'bad-request', error: `${channel}: ${parsed.error}` };
  const handler = handlers[channel] as (...a: unknown[]) => unknown;
  try {
    return { ok: true, value: await handler(...(parsed.value as unknown[])) };
  } catch (error) {
    // A refusal's facts go along, for the window's language (common/errors.ts WordedError).
    const { kind, message, words } = toErrorInfo(error);
    return { ok: false, status: 500, kind, error: message, ...(words && { words }) };
  }
}

/** `dispatchInvoke`'s answer as it crosses a process: the value as JSON text, or the failure with its kind. */
export async function answerInvoke(
  handlers: InvokeHandlers,
  channel: string,
  args: unknown,
): Promise<HostReply> {
  const result = await dispatchInvoke(handlers, channel, args);
  return result.ok
    ? { ok: true, json: JSON.stringify(result.value ?? null) }
    : {
        ok: false,
        error: { kind: result.kind, message: result.error, ...(result.words && { words: result.words }) },
      };
}

/** A tiny push hub the engine uses to fan events out to every connected window. */
export class PushHub {
  private readonly listeners = new Set<PushListener>();
  on(listener: PushListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit<P extends PushChannel>(channel: P, payload: PushEvents[P]): void {
    for (const listener of this.listeners) listener(channel, payload);
  }
}
