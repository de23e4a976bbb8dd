import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';

import { HOMELAB_NODES, inventory, iso, NOW, node } from '../fixtures/homelab.ts';
import { CARD_LIMIT, cardIssues } from './card-issues.ts';

const en = translator('en');

const down = (name: string, msAgo = 3 * 3600_000) =>
  node(name, {
    ready: false,
    readiness: 'Unknown',
    not_ready_reason: 'NodeStatusUnknown',
    not_ready_message: 'Kubelet stopped posting node status.',
    not_ready_since: iso(msAgo),
  });

describe('cardIssues', () => {
  it('words an entry without `readiness` (saved before it existed) as every other surface does', () => {
    const old = node('omen', { ready: false, not_ready_reason: null, not_ready_message: null });
    delete old.readiness;
    // The tray, the alerts and `scan -o wide` read a missing readiness as Unknown (entryReason).
    expect(cardIssues(inventory([old]), NOW, en).down[0]?.reason).toBe('readiness unknown');
  });

  it('names each not-ready GPU node with its short reason and how long', () => {
    const issues = cardIssues(inventory([down('omen'), node('ok')]), NOW, en);
    expect(issues.down).toEqual([
      { name: 'omen', reason: 'kubelet stopped posting node status', age: '3 h' },
    ]);
    expect(issues.moreDown).toBe(0);
  });

  it('words the short reason in the window’s language', () => {
    const issues = cardIssues(inventory([down('omen')]), NOW, translator('ko'));
    expect(issues.down[0]?.reason).toBe('kubelet이 노드 상태 보고를 중단함');
  });

  it('words a NotReady from the kubelet message and survives a missing time', () => {
    const sick = node('nuc2', {
      ready: false,
      readiness: 'False',
      not_ready_reason: 'KubeletNotReady',
      not_ready_message: 'PLEG is not healthy: pleg was last seen active 3m0s ago',
      not_ready_since: null,
    });
    expect(cardIssues(inventory([sick]), NOW, en).down).toEqual([
      { name: 'nuc2', reason: 'NotReady (PLEG is not healthy)', age: null },
    ]);
  });

  it(`shows at most ${CARD_LIMIT} down nodes and counts the rest`, () => {
    const nodes = Array.from({ length: 8 }, (_, i) => down(`n${i}`));
    const issues = cardIssues(inventory(nodes), NOW, en);
    expect(issues.down.map((d) => d.name)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(issues.moreDown).toBe(3);
    expect(cardIssues(inventory(nodes.slice(0, CARD_LIMIT)), NOW, en).moreDown).toBe(0);
  });

  it('lists GPU problems (allocatable below capacity, stale labels) of ready nodes too, capped', () => {
    const issues = cardIssues(inventory(HOMELAB_NODES), NOW, en);
    expect(issues.problems).toEqual([
      { name: 'nuc1', text: 'capacity 4 but allocatable 0' },
      { name: 'nuc2', text: 'GPU labels gone (last seen: RTX 4070 ×1)' },
    ]);
    const many = Array.from({ length: 7 }, (_, i) => node(`g${i}`, { problems: [`problem ${i}`] }));
    const capped = cardIssues(inventory(many), NOW, en);
    expect(capped.problems).toHaveLength(CARD_LIMIT);
    expect(capped.moreProblems).toBe(2);
    expect(capped.down).toEqual([]);
  });

  it('is empty without an inventory', () => {
    expect(cardIssues(null, NOW, en)).toEqual({ down: [], moreDown: 0, problems: [], moreProblems: 0 });
  });
});
