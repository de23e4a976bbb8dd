import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { scheduling } from './scheduling.ts';

const en = translator('en');
const taint = (key: string, effect: string, value: string | null = null) => ({ key, value, effect });

describe('what the scheduler would do with a node', () => {
  it('says Cordoned first, whatever the taints', () => {
    expect(scheduling({ unschedulable: true, taints: [taint('gpu', 'NoSchedule', 'broken')] }, en)).toEqual({
      kind: 'cordoned',
      text: 'Cordoned: no new pods are scheduled here.',
    });
  });

  it('is not schedulable with a NoSchedule taint, and names it', () => {
    expect(
      scheduling({ unschedulable: false, taints: [taint('gpu', 'NoSchedule', 'broken')] }, en).text,
    ).toBe('Not schedulable: taint gpu=broken:NoSchedule (only pods that tolerate it).');
  });

  it('says running pods are evicted under NoExecute, naming at most three taints', () => {
    const taints = ['a', 'b', 'c', 'd'].map((k) => taint(k, 'NoExecute'));
    expect(scheduling({ unschedulable: false, taints }, en).text).toBe(
      'Not schedulable, and pods already running without a toleration are evicted: taints a:NoExecute, b:NoExecute, c:NoExecute, and 1 more.',
    );
  });

  it('is schedulable, but avoided, under PreferNoSchedule only; plainly schedulable without taints', () => {
    expect(scheduling({ unschedulable: false, taints: [taint('x', 'PreferNoSchedule')] }, en)).toEqual({
      kind: 'avoided',
      text: 'Schedulable, but the scheduler avoids it: taint x:PreferNoSchedule.',
    });
    expect(scheduling({ unschedulable: false, taints: [] }, en)).toEqual({
      kind: 'schedulable',
      text: 'Schedulable.',
    });
  });

  it('speaks Korean', () => {
    expect(
      scheduling({ unschedulable: false, taints: [taint('gpu', 'NoSchedule', 'broken')] }, translator('ko'))
        .text,
    ).toBe('스케줄 불가: taint gpu=broken:NoSchedule (이를 허용하는 파드만).');
  });
});
