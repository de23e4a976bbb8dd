import { fireEvent, render, screen } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import type { TimelineRangeName } from '../../../common/timeline.ts';
import { fleet } from '../../../test/fixtures/snapshots.ts';
import { createFakeFleet, emptyTimeline } from '../../fixtures/fake-fleet.ts';
import { TimelineState } from '../../state/timeline.svelte.ts';
import Away from './AwaySummary.svelte';
import HistoryView from './HistoryView.svelte';

const TO = new Date(2026, 11, 3, 8, 0).getTime();
const at = (h: number, m: number) => new Date(2026, 11, 3, h, m).getTime();

function fake() {
  return createFakeFleet(fleet([]), {
    timeline: (context, range: TimelineRangeName) => ({
      ...emptyTimeline(context, range, TO),
      counts: [
        { at: TO - 3_600_000, ready: 4, total: 4, gpus: 8 },
        { at: at(7, 14), ready: 3, total: 4, gpus: 8 },
      ],
      alerts: [
        {
          id: 'a1',
          at: at(7, 14),
          kind: 'ready-drop',
          nodes: ['nuc1'],
          title: 'home: nuc1 NotReady',
          body: '',
          deliveries: [],
        },
      ],
      episodes: [
        {
          kind: 'not-ready',
          node: 'nuc1',
          from: at(7, 14),
          to: at(7, 31),
          state: 'NotReady',
          reason: 'NodeStatusUnknown',
          message: 'kubelet stopped posting status',
          events: 3,
          alerts: 1,
        },
      ],
      status:
        range === '30d'
          ? { state: 'not-recording', kind: 'full', reason: 'the disk is full', since: TO }
          : { state: 'recording' },
    }),
  });
}

it('lists what happened and switches ranges in place, saying when the timeline is not recording', async () => {
  const f = fake();
  const timeline = new TimelineState(f.api);
  render(HistoryView, { props: { timeline, context: 'home', price: null, currency: '' } });
  const episode = await screen.findByTestId('episode');
  expect(episode.textContent?.replace(/\s+/g, ' ').trim()).toBe(
    'nuc1 NotReady 07:14–07:31 (17 min): kubelet stopped posting status · 3 events · 1 alert',
  );
  expect(screen.getAllByTestId('alert-marker')).toHaveLength(1);
  expect(screen.getByTestId('timeline-status').textContent).toBe('Recording');
  await fireEvent.click(screen.getByTestId('range-30d'));
  await screen.findByText('Not recording: the disk is full');
  expect(screen.getByTestId('history-view').getAttribute('data-range')).toBe('30d');
  expect(screen.getByTestId('range-30d').getAttribute('aria-pressed')).toBe('true');
  expect(
    f.calls.filter((c) => c.channel === 'timeline:range').map((c) => (c.args[0] as { range: string }).range),
  ).toEqual(['24h', '30d']);
});

it('shows the morning summary once, one line per cluster', async () => {
  const f = createFakeFleet(fleet([]), {
    summary: [{ context: 'home-lab', since: 0, episodes: 2, downMs: 23 * 60_000, kwh: 4.1 }],
  });
  render(Away, { props: { api: f.api } });
  expect((await screen.findByTestId('away-line')).textContent).toBe(
    'home-lab: 2 episodes, 23 min down, 4.10 kWh',
  );
});

it('describes the chart from its first recorded point, not from the start of the range', async () => {
  const f = fake();
  const timeline = new TimelineState(f.api);
  render(HistoryView, { props: { timeline, context: 'home', price: null, currency: '' } });
  await screen.findByTestId('episode');
  // The range is 24 h, but the first point was recorded an hour ago (07:00): nothing before it is 0.
  expect(screen.getByTestId('history-chart').textContent).toContain(
    'From 07:00 to now, ready GPU nodes went from 4 to 3 of 4',
  );
});

it('says the ready GPU nodes stayed the same when they never changed in the range', async () => {
  const f = createFakeFleet(fleet([]), {
    timeline: (context, range: TimelineRangeName) => ({
      ...emptyTimeline(context, range, TO),
      counts: [
        { at: TO - 3_600_000, ready: 0, total: 4, gpus: 1 },
        { at: at(7, 30), ready: 0, total: 4, gpus: 1 },
      ],
    }),
  });
  render(HistoryView, {
    props: { timeline: new TimelineState(f.api), context: 'home', price: null, currency: '' },
  });
  const chart = await screen.findByTestId('history-chart');
  await expect
    .poll(() => chart.textContent)
    .toContain('From 07:00 to now, ready GPU nodes stayed at 0 of 4.');
  expect(chart.textContent).not.toContain('went from');
});

it('draws free GPUs by product over the range, with each one now', async () => {
  const f = createFakeFleet(fleet([]), {
    timeline: (context, range: TimelineRangeName) => ({
      ...emptyTimeline(context, range, TO),
      free: [
        {
          product: 'A100 SXM4 40GB',
          points: [
            { at: TO - 3_600_000, free: 3 },
            { at: at(7, 30), free: 1 },
          ],
        },
      ],
    }),
  });
  const timeline = new TimelineState(f.api);
  render(HistoryView, { props: { timeline, context: 'home', price: null, currency: '' } });
  const line = await screen.findByTestId('free-line');
  expect(line.getAttribute('data-product')).toBe('A100 SXM4 40GB');
  expect(line.textContent?.replace(/\s+/g, ' ').trim()).toBe('A100 SXM4 40GB 1 free now');
  expect(screen.getByRole('img', { name: 'A100 SXM4 40GB: free GPUs over the range' })).toBeTruthy();
  expect(line.querySelector('path')?.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+H[\d.]+V[\d.]+H[\d.]+$/);
});
