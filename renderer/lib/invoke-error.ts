/**
 * The one way the window reads a rejected invoke: both bridges (Electron's preload, the web bridge)
 * reject with `{kind, message}`; anything else (a bug in the window itself) is kind 'failed' with its
 * message. No prefix is stripped: the host's sentence arrives as it was written.
 */
import { type ErrorInfo, toErrorInfo } from '../../common/errors.ts';

export function invokeError(e: unknown): ErrorInfo {
  return toErrorInfo(e, 'failed');
}

/** The sentence of a rejected invoke. */
export function invokeErrorText(e: unknown): string {
  return invokeError(e).message;
}
