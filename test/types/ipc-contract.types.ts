/**
 * Type-level tests of the contract in common/ipc.ts, checked by `tsc -p tsconfig.json` (a step of
 * `npm test`): each `@ts-expect-error` below is a mistake that must not compile. If one of them ever
 * compiles, tsc fails with "Unused '@ts-expect-error' directive" — the test has gone red.
 */
import { Type } from '@sinclair/typebox';
import { ARG_SCHEMAS, type ArgSchemas, type PushChannel, type PushSender } from '../../common/ipc.ts';
import type { WindowManager } from '../../main/electron/window.ts';
import type { InvokeHandlers } from '../../main/fleet/host.ts';

const { 'app:info': _dropped, ...withoutAppInfo } = ARG_SCHEMAS;

// A channel with a result type but no argument schema.
// @ts-expect-error 'app:info' is missing
withoutAppInfo satisfies ArgSchemas;

// An argument schema for a channel with no result type.
// @ts-expect-error 'extra:channel' is not in InvokeResults
({ ...ARG_SCHEMAS, 'extra:channel': Type.Tuple([]) }) satisfies ArgSchemas;

// The whole contract is exhaustive as it stands.
ARG_SCHEMAS satisfies ArgSchemas;

declare const send: PushSender;
declare const windows: WindowManager;
declare const handlers: InvokeHandlers;

// @ts-expect-error no such push event
send('ui:nope', {});
// @ts-expect-error a push's payload is typed by PushEvents
send('ui:focus', { context: 'lab' });
// @ts-expect-error the window's send is typed by PushEvents too
windows.send('ui:show', { view: 'nowhere' });
windows.send('ui:show', { view: 'settings' });

// @ts-expect-error a handler answers its channel's result type
handlers['app:info'] = () => ({ version: 1 });

const every: Record<PushChannel, true> = {
  'fleet:snapshot': true,
  'fleet:delta': true,
  'fleet:mark': true,
  'alerts:new': true,
  'alerts:notify': true,
  'ui:focus': true,
  'ui:show': true,
  'app:notice': true,
  'kubectl:contexts': true,
};
// @ts-expect-error a push channel missing from a Record<PushChannel, …>
({ 'fleet:snapshot': true }) satisfies Record<PushChannel, true>;
void every;
