import { describe, expect, it } from 'vitest';
import type { FleetApi } from '../../common/ipc.ts';
import { FleetStore } from '../state/fleet.svelte.ts';
import { invokeError, invokeErrorText } from './invoke-error.ts';

describe('invokeError: the one reader of a rejected invoke', () => {
  it('keeps the {kind, message} both bridges reject with', () => {
    expect(invokeError({ kind: 'forbidden', message: 'Not allowed.' })).toEqual({
      kind: 'forbidden',
      message: 'Not allowed.',
    });
  });

  it("names anything else 'failed' with its message, and strips nothing", () => {
    expect(invokeError(new Error('boom'))).toEqual({ kind: 'failed', message: 'boom' });
    expect(invokeError({ kind: 'no-such-kind', message: 'x' })).toEqual({
      kind: 'failed',
      message: '[object Object]',
    });
    expect(invokeErrorText('plain')).toBe('plain');
  });

  it("the CRD install's failure shows the host's sentence as it was written", async () => {
    const api = {
      invoke: (channel: string) =>
        channel === 'writeback:install'
          ? Promise.reject({
              kind: 'forbidden',
              message: 'The user "u" may not create customresourcedefinitions.',
            })
          : Promise.reject({ kind: 'disconnected', message: 'not now' }),
      on: () => () => undefined,
    } as unknown as FleetApi;
    const store = new FleetStore(api);
    expect(await store.installCrd('lab')).toBe(
      'Could not install the CRD: The user "u" may not create customresourcedefinitions.',
    );
  });
});
