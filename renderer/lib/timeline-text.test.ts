import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import type { Episode } from '../../common/timeline.ts';
import {
  energyText,
  episodeCounts,
  episodeSpan,
  episodeTitle,
  spanText,
  statusText,
  summaryText,
} from './timeline-text.ts';

const en = translator('en');
const ko = translator('ko');
const at = (h: number, m: number) => new Date(2026, 11, 3, h, m).getTime();
const ep: Episode = {
  kind: 'not-ready',
  node: 'nuc1',
  from: at(2, 14),
  to: at(2, 31),
  state: 'NotReady',
  reason: 'NodeStatusUnknown',
  message: 'kubelet stopped posting status',
  events: 3,
  alerts: 1,
};

describe('timeline words', () => {
  it('words an episode as the issue shows it', () => {
    expect(
      `${episodeTitle(ep, en)} ${episodeSpan(ep, at(3, 0), false, en)}: ${ep.message} · ${episodeCounts(ep, en)}`,
    ).toBe('nuc1 NotReady 02:14–02:31 (17 min): kubelet stopped posting status · 3 events · 1 alert');
    expect(episodeSpan({ ...ep, to: null }, at(4, 19), false, en)).toBe('02:14–now (2 h 5 min, ongoing)');
    expect(episodeCounts({ ...ep, events: 1, alerts: 0 }, ko)).toBe('이벤트 1건');
  });

  it('words the status in the user language, the morning summary and energy with a price', () => {
    expect(
      statusText({ state: 'not-recording', kind: 'full', reason: 'the disk is full', since: 1 }, en),
    ).toBe('Not recording: the disk is full');
    expect(statusText({ state: 'not-recording', kind: 'read-only', reason: 'x', since: 1 }, ko)).toBe(
      '기록하지 않음: 데이터 폴더가 읽기 전용입니다',
    );
    expect(
      summaryText({ context: 'home-lab', since: 0, episodes: 2, downMs: 23 * 60_000, kwh: 4.1 }, en),
    ).toBe('home-lab: 2 episodes, 23 min down, 4.10 kWh');
    expect(energyText(4.1, 0.3, 'EUR', en)).toBe('4.10 kWh in this range · 1.23 EUR');
    expect(spanText(30_000, en)).toBe('30 s');
  });
});
