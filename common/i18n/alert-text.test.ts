/** Alerts worded per language from their facts: our words translated, names and cluster reasons kept. */
import { describe, expect, it } from 'vitest';
import { type Alert, NOTIFICATION_BODY_MAX } from '../alerts.ts';
import { alertText, shownAlertText } from './alert-text.ts';
import type { Locale } from './locales.ts';
import { translator } from './translator.ts';

const drop = (n: number, left: string[] = []) => ({
  context: 'home-lab',
  nodes: Array.from({ length: n }, (_, i) => `gpu-${i}`),
  before: n + 2,
  after: 2,
  reasons: Array.from({ length: n }, (_, i) => ({
    node: `gpu-${i}`,
    reason: left.includes(`gpu-${i}`) ? 'left the cluster' : 'kubelet stopped posting node status',
  })),
  words: { kind: 'ready-drop' as const, left },
});

describe('alert words per language', () => {
  it('a Korean drop: Korean words, node names and the cluster’s reason as written, our reason translated', () => {
    const text = alertText(drop(2, ['gpu-1']), translator('ko'));
    expect(text.title).toBe('home-lab: GPU 노드 2개 다운');
    expect(text.body).toBe(
      'gpu-0: kubelet stopped posting node status; gpu-1: 클러스터에서 제거됨. Ready GPU 노드 4 → 2.',
    );
  });

  it('Chinese and Japanese: their punctuation, no space between sentences', () => {
    const a = {
      context: 'lab',
      nodes: ['a', 'b'],
      before: 1,
      after: 3,
      words: { kind: 'recovered' as const },
    };
    expect(alertText(a, translator('zh-CN')).body).toBe('a、b 已重新 Ready。Ready 的 GPU 节点 1 → 3。');
    expect(alertText(a, translator('ja')).body).toBe(
      'a、b が再び Ready になりました。Ready GPU ノード 1 → 3。',
    );
    expect(alertText(a, translator('en')).body).toBe('a, b are Ready again. Ready GPU nodes 1 → 3.');
  });

  it.each(['en', 'zh-CN', 'ko', 'ja'] as const)(
    '%s: a drop of 3,000 nodes fits the notification',
    (locale) => {
      const text = alertText(drop(3000), translator(locale));
      expect(text.short?.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
      expect(text.short).toContain('gpu-0');
      expect(text.body.length).toBeGreaterThan(NOTIFICATION_BODY_MAX);
    },
  );

  it('numbers go through Intl outside English (the CLI keeps 4000)', () => {
    const a = {
      context: 'big',
      nodes: [],
      before: 4000,
      after: null,
      words: { kind: 'unreachable' as const, forMs: 90 * 60_000, total: 4200 },
    };
    expect(alertText(a, translator('ko')).body).toBe(
      '1시간 30분 동안 big에서 응답이 없습니다. 마지막 확인: GPU 노드 4,200개 중 4,000개 Ready.',
    );
    expect(alertText(a, translator('en')).body).toBe(
      'No answer from big for 1 h 30 min. Last known: 4000 of 4200 GPU nodes Ready.',
    );
  });

  it('a hostile context name is one clean line in every language’s title', () => {
    const expectedTitle = (l: Locale) => translator(l).t('alert.reachable.title', { context: 'lab ERROR' });
    const a = {
      context: 'lab\u001b[2J\nERROR',
      nodes: [],
      before: null,
      after: 3,
      words: { kind: 'reachable' as const, afterMs: 5000 },
    };
    for (const l of ['en', 'ko', 'ja', 'zh-CN'] as const)
      expect(alertText(a, translator(l)).title).toBe(expectedTitle(l));
  });

  it('an alert logged before languages existed is shown as it was logged', () => {
    const old: Alert = {
      id: 'x',
      at: '2026-12-01T10:00:00Z',
      context: 'lab',
      kind: 'recovered',
      title: 'lab: GPU nodes back',
      body: 'Ready GPU nodes 1 → 2.',
      nodes: [],
      before: 1,
      after: 2,
    };
    expect(shownAlertText(old, translator('ja'))).toEqual({ title: old.title, body: old.body });
  });
});

describe('a large gpus-withdrawn alert in a notification', () => {
  const withdrawn = (n: number) => ({
    context: 'lab',
    nodes: Array.from({ length: n }, (_, i) => `gpu-${i}`),
    before: null,
    after: null,
    words: {
      kind: 'gpus-withdrawn' as const,
      lines: Array.from({ length: n }, (_, i) => ({ node: `gpu-${i}`, allocatable: 7, capacity: 8 })),
    },
  });

  it.each(['en', 'ko', 'ja', 'zh-CN'] as const)(
    '%s: the notification names the first nodes that fit and counts the rest',
    (locale) => {
      const tr = translator(locale);
      const text = alertText(withdrawn(486), tr);
      expect(text.body.length).toBeGreaterThan(10_000);
      const short = text.short ?? '';
      expect(short.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
      const named = short.match(/gpu-\d+/g) ?? [];
      expect(named[0]).toBe('gpu-0');
      expect(short.endsWith(tr.t('alert.more', { count: 486 - named.length }))).toBe(true);
    },
  );

  it('a small one needs no short text', () => {
    expect(alertText(withdrawn(1), translator('en')).short).toBeUndefined();
  });
});
