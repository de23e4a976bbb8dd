/** The alert log's pause line reads as words in the window's language, never the raw 'until resumed'. */
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte.ts';
import AlertLog from './AlertLog.svelte';

const NOW = new Date(2026, 11, 4, 9, 0).getTime();
const show = (pausedUntil: string | null) =>
  render(AlertLog, { props: { alerts: [], pausedUntil, onsnooze: () => {}, now: NOW } });
const line = () => screen.getByTestId('alerts-paused').textContent?.trim();

afterEach(() => i18n.setLanguage('en'));

describe('alert log pause', () => {
  it.each([
    ['en', 'Paused until you resume'],
    ['ko', '다시 켤 때까지 일시 중지됨'],
    ['ja', '再開するまで一時停止中'],
    ['zh-CN', '已暂停（直到你恢复）'],
  ] as const)('a pause until resumed reads as words in %s', (lang, text) => {
    i18n.setLanguage(lang);
    show('until resumed');
    expect(line()).toBe(text);
  });

  it('a pause that ends today names its time', () => {
    show(new Date(2026, 11, 4, 14, 0).toISOString());
    expect(line()).toMatch(/^Paused until (02:00 PM|14:00)$/);
  });
});
