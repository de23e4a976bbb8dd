/** The one wording of "why not Ready" every surface uses. */
import { describe, expect, it } from 'vitest';
import { translator } from './i18n/translator.ts';
import { SHORT_REASON_MAX, shortReason } from './node-reason.ts';

describe('shortReason', () => {
  it.each([
    ['True', 'KubeletReady', 'kubelet is posting ready status', ''],
    [
      'Unknown',
      'NodeStatusUnknown',
      'Kubelet stopped posting node status.',
      'kubelet stopped posting node status',
    ],
    ['Unknown', null, 'Kubelet stopped posting node status.', 'kubelet stopped posting node status'],
    ['Unknown', 'Other', 'Lease expired: renewTime 5m ago', 'lease expired'],
    ['Unknown', 'Other', null, 'readiness unknown (Other)'],
    ['Unknown', null, null, 'readiness unknown'],
    [
      'False',
      'KubeletNotReady',
      'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s',
      'NotReady (PLEG is not healthy)',
    ],
    [
      'False',
      'KubeletNotReady',
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni plugin not initialized',
      'NotReady (container runtime network not ready)',
    ],
    ['False', 'KubeletNotReady', 'container runtime is down', 'NotReady (container runtime is down)'],
    ['False', 'KubeletNotReady', null, 'NotReady (KubeletNotReady)'],
    ['False', null, '', 'NotReady'],
    [null, null, null, 'no Ready condition reported'],
    ['Maybe', null, null, 'Ready=Maybe'],
  ])('%s / %s / %s → %s', (status, reason, message, want) => {
    expect(shortReason({ status, reason, message })).toBe(want);
  });

  it('is one short line however hostile the message', () => {
    const why = shortReason({
      status: 'False',
      reason: 'X',
      message: `\u001b[2J\u001b]0;pwned\u0007fake\nsecond line ${'z'.repeat(10_000)}`,
    });
    expect(why.startsWith('NotReady (fake second line zzz')).toBe(true);
    expect(why.length).toBeLessThanOrEqual(SHORT_REASON_MAX + 'NotReady ()'.length);
    expect(Array.from(why).some((c) => (c.codePointAt(0) ?? 0) < 32)).toBe(false);
  });

  it('words our phrases in the user’s language and keeps the kubelet’s clause as written', () => {
    const ko = translator('ko');
    const zh = translator('zh-CN');
    const ja = translator('ja');
    const stopped = { status: 'Unknown', reason: 'NodeStatusUnknown', message: null };
    expect(shortReason(stopped, ko)).toBe('kubelet이 노드 상태 보고를 중단함');
    expect(shortReason(stopped, ja)).toBe('kubelet がノードステータスの送信を停止');
    expect(shortReason({ status: 'Unknown', reason: 'Other', message: null }, zh)).toBe(
      '就绪状态未知（Other）',
    );
    expect(shortReason({ status: null, reason: null, message: null }, ko)).toBe('Ready 조건이 보고되지 않음');
    const pleg = { status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy: pleg was…' };
    expect(shortReason(pleg, zh)).toBe('NotReady（PLEG is not healthy）');
    expect(shortReason({ status: 'Unknown', reason: 'Other', message: 'Lease expired: x' }, ja)).toBe(
      'lease expired',
    );
  });
});
