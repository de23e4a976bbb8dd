/** The window's words follow the language setting and the browser's languages, re-rendering in place. */
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ContextCard from '../components/ContextCard.svelte';
import Tabs from '../components/Tabs.svelte';
import { homelab, NOW } from '../fixtures/homelab.ts';
import { i18n } from './i18n.svelte.ts';

afterEach(() => {
  vi.restoreAllMocks();
  i18n.setLanguage('auto');
  i18n.setSystemLanguages(null);
  i18n.refreshPreferred();
  flushSync();
});

describe('window language', () => {
  it('a language setting re-renders what is on screen, no remount', () => {
    render(Tabs, { props: { current: 'overview', onselect: () => undefined } });
    const nodes = screen.getByTestId('tab-nodes');
    expect(nodes.textContent?.trim()).toBe('Nodes');
    i18n.setLanguage('ko');
    flushSync();
    expect(nodes.textContent?.trim()).toBe('노드');
    i18n.setLanguage('zh-CN');
    flushSync();
    expect(screen.getByTestId('tab-nodes')).toBe(nodes);
    expect(nodes.textContent?.trim()).toBe('节点');
  });

  it("'auto' follows navigator.languages when they are read again (App does on languagechange)", () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'ja-JP']);
    i18n.refreshPreferred();
    flushSync();
    expect(i18n.locale).toBe('ja');
    expect(i18n.systemLocale).toBe('ja');
    i18n.setLanguage('en');
    expect(i18n.locale).toBe('en');
    expect(i18n.systemLocale).toBe('ja');
  });

  it("the desktop host's OS languages win over the browser's, so the window matches the tray", () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US']);
    i18n.refreshPreferred();
    i18n.setSystemLanguages(['zh-Hans-CN', 'en-US']);
    expect(i18n.locale).toBe('zh-CN');
    i18n.setSystemLanguages(undefined);
    expect(i18n.locale).toBe('en');
  });

  it("a card's words in the language", () => {
    i18n.setLanguage('ja');
    flushSync();
    render(ContextCard, {
      props: {
        ctx: homelab(),
        index: 1,
        focused: false,
        now: NOW,
        onselect: () => undefined,
        onnode: () => undefined,
      },
    });
    expect(screen.getByTestId('card-focus').textContent).toContain('GPU ノードが Ready');
  });
});
