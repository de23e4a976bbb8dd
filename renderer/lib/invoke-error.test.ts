import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
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
    expect(invokeErrorText('plain', translator('en').t)).toBe('plain');
  });

  it('words a refusal from its facts in the window language, else keeps the sentence', () => {
    const ko = translator('ko').t;
    const words = { code: 'kubeChanged', file: '~/.kube/config' };
    const said = '~/.kube/config changed since GPU Fleet read it; nothing was written (try again).';
    expect(invokeErrorText({ kind: 'conflict', message: said, words }, ko)).toBe(
      ko('kubectl.words.changed', { file: '~/.kube/config' }),
    );
    expect(invokeErrorText({ kind: 'conflict', message: said, words }, ko)).toMatch(/[\uac00-\ud7a3]/);
    // Facts this version does not know (or not well-formed) are dropped where they arrive: the sentence stays.
    for (const odd of [{ code: 'kubeFuture', file: 'x' }, { ...words, extra: 1 }, { code: 'kubeChanged' }])
      expect(invokeErrorText({ kind: 'conflict', message: said, words: odd }, ko)).toBe(said);
    expect(
      invokeErrorText(
        { kind: 'bad-request', message: 'x', words: { code: 'kubeBadName', fault: 'odd', max: 1 } },
        ko,
      ),
    ).toBe('x');
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
