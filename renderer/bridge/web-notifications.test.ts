import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '../../common/alerts.ts';
import type { PushChannel, PushEvents } from '../../common/ipc.ts';
import NotificationControl from '../components/NotificationControl.svelte';
import { connectHost } from './connect.ts';
import { type NotificationBrowser, type NotifyBridge, WebNotifications } from './web-notifications.svelte.ts';

const drop: Alert = {
  id: 'lab:ready-drop:2026-12-01T10:00:00.000Z',
  at: '2026-12-01T10:00:00.000Z',
  context: 'lab',
  kind: 'ready-drop',
  title: 'lab: 1 GPU node down',
  body: 'omen: NotReady (container runtime is down)',
  nodes: ['omen'],
  before: 4,
  after: 3,
};

/** A stand-in for the browser's Notification class: counts constructions, as the e2e init script does. */
function fakeBrowser(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  const made: FakeNotification[] = [];
  const focus = vi.fn();
  let asked = 0;
  class FakeNotification {
    static permission: NotificationPermission = permission;
    static async requestPermission() {
      asked++;
      FakeNotification.permission = answer;
      return answer;
    }
    onclick: ((e: { preventDefault(): void }) => void) | null = null;
    closed = false;
    constructor(
      readonly title: string,
      readonly options: NotificationOptions,
    ) {
      made.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  const browser: NotificationBrowser = {
    Notification: FakeNotification as unknown as typeof Notification,
    focus,
    permissions: undefined,
  };
  return { browser, made, focus, asked: () => asked, N: FakeNotification };
}

function fakeBridge() {
  const listeners = new Map<PushChannel, ((p: never) => void)[]>();
  const delivered: { channel: PushChannel; payload: unknown }[] = [];
  const bridge: NotifyBridge = {
    on: (channel, listener) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener as (p: never) => void]);
      return () => undefined;
    },
    deliver: (channel, payload) => void delivered.push({ channel, payload }),
  };
  const push = <P extends PushChannel>(channel: P, payload: PushEvents[P]) => {
    for (const l of listeners.get(channel) ?? []) l(payload as never);
  };
  return { bridge, push, delivered };
}

afterEach(() => {
  delete window.fleet;
  vi.unstubAllGlobals();
});

describe('WebNotifications', () => {
  it('shows one notification per alert the host says to notify, with the Electron notifier’s words and tag', () => {
    const { browser, made } = fakeBrowser('granted');
    const { bridge, push } = fakeBridge();
    const n = new WebNotifications(bridge, browser);
    n.start();
    expect(n.state).toBe('granted');
    push('alerts:new', drop); // the log's push: not a notification
    expect(made).toHaveLength(0);
    push('alerts:notify', drop);
    push('alerts:notify', drop);
    expect(made).toHaveLength(1);
    expect(made[0]?.title).toBe('lab: 1 GPU node down');
    expect(made[0]?.options).toEqual({
      body: 'omen: NotReady (container runtime is down)',
      tag: drop.id,
      silent: false,
    });
    push('alerts:notify', { ...drop, id: 'lab:recovered:x', kind: 'recovered', short: 'short body' });
    expect(made[1]?.options).toMatchObject({ body: 'short body', silent: true });
  });

  it('focuses the window and hands the page the ui:focus of the alert on click', () => {
    const { browser, made, focus } = fakeBrowser('granted');
    const { bridge, push, delivered } = fakeBridge();
    new WebNotifications(bridge, browser).start();
    push('alerts:notify', drop);
    made[0]?.onclick?.({ preventDefault: () => undefined });
    expect(focus).toHaveBeenCalledOnce();
    expect(delivered).toEqual([{ channel: 'ui:focus', payload: { context: 'lab', node: 'omen' } }]);
    expect(made[0]?.closed).toBe(true);
  });

  it('shows nothing before permission; asks only from enable(), then shows', async () => {
    const { browser, made, asked } = fakeBrowser('default');
    const { bridge, push } = fakeBridge();
    const n = new WebNotifications(bridge, browser);
    n.start();
    push('alerts:notify', drop);
    expect(made).toHaveLength(0);
    expect(asked()).toBe(0);
    await n.enable();
    expect(asked()).toBe(1);
    expect(n.state).toBe('granted');
    push('alerts:notify', { ...drop, id: 'lab:ready-drop:later' });
    expect(made).toHaveLength(1);
  });

  it('says denied when the user refuses, and never asks again', async () => {
    const { browser, made, asked } = fakeBrowser('default', 'denied');
    const { bridge, push } = fakeBridge();
    const n = new WebNotifications(bridge, browser);
    n.start();
    await n.enable();
    expect(n.state).toBe('denied');
    await n.enable();
    expect(asked()).toBe(1);
    push('alerts:notify', drop);
    expect(made).toHaveLength(0);
  });

  it('is unsupported without the API, and failed when the browser refuses to construct one', () => {
    const { bridge, push } = fakeBridge();
    expect(
      new WebNotifications(bridge, {
        Notification: undefined,
        focus: () => undefined,
        permissions: undefined,
      }).state,
    ).toBe('unsupported');
    const { browser, N } = fakeBrowser('granted');
    const throwing = {
      ...browser,
      Notification: Object.assign(
        function Refuse() {
          throw new TypeError('Illegal constructor');
        },
        { permission: N.permission, requestPermission: N.requestPermission },
      ) as unknown as typeof Notification,
    };
    const n = new WebNotifications(bridge, throwing);
    n.start();
    push('alerts:notify', drop);
    expect(n.state).toBe('failed');
    expect(n.failure).toBe('Illegal constructor');
  });
});

describe('NotificationControl', () => {
  it.each([
    ['default', /Enable desktop notifications/],
    ['granted', /Desktop notifications on/],
    ['denied', /blocked for this page/],
  ] as const)('in state %s says so', (permission, text) => {
    const { browser } = fakeBrowser(permission);
    render(NotificationControl, {
      props: { notifications: new WebNotifications(fakeBridge().bridge, browser) },
    });
    expect(screen.getByTestId('notify-state').dataset.state).toBe(permission);
    expect(screen.getByTestId('notify-state').textContent).toMatch(text);
  });

  it('asks for permission on the button click', async () => {
    const { browser, asked } = fakeBrowser('default');
    render(NotificationControl, {
      props: { notifications: new WebNotifications(fakeBridge().bridge, browser) },
    });
    await fireEvent.click(screen.getByTestId('notify-enable'));
    await vi.waitFor(() => expect(screen.getByTestId('notify-state').dataset.state).toBe('granted'));
    expect(asked()).toBe(1);
  });
});

describe('connectHost', () => {
  it('creates no notifier when Electron’s preload is there: main notifies alone', () => {
    window.fleet = fakeBridge().bridge as never;
    expect(connectHost(window, fakeBrowser('granted').browser).notifications).toBeNull();
  });

  it('creates the web bridge and the notifier in browser mode', () => {
    class NoStream {
      addEventListener() {}
    }
    vi.stubGlobal('EventSource', NoStream);
    expect(window.location.protocol).toBe('http:');
    const { notifications } = connectHost(window, fakeBrowser('granted').browser);
    expect(notifications?.state).toBe('granted');
    expect(window.fleet).toBeDefined();
  });
});
