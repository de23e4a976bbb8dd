/** The tray names the down GPU nodes of each context, with why, under its line. */
import { describe, expect, it } from 'vitest';
import { translator } from '../../../common/i18n/translator.ts';
import type { GpuNodeEntry } from '../../../common/inventory.ts';
import { contextSnapshot, fleet, inventory } from '../../../test/fixtures/snapshots.ts';
import { trayContext, trayFleet } from './tray-fleet.ts';
import { buildTrayModel, downNodeLines, TRAY_DOWN_NODES_MAX } from './tray-model.ts';

const downInventory = (n: number, patch: Partial<GpuNodeEntry> = {}) => {
  const inv = inventory(0, n);
  return { ...inv, nodes: inv.nodes.map((e) => ({ ...e, ...patch })) };
};
const UNKNOWN: Partial<GpuNodeEntry> = {
  readiness: 'Unknown',
  not_ready_reason: 'NodeStatusUnknown',
  not_ready_message: 'Kubelet stopped posting node status.',
};

const en = translator('en');

describe('downNodeLines', () => {
  it('lists each down GPU node with its reason, disabled, under its context', () => {
    const ctx = contextSnapshot('home-lab', 'live', downInventory(2, UNKNOWN));
    const model = buildTrayModel(trayFleet(fleet([ctx])), en);
    expect(model.menu.slice(0, 3).map((i) => [i.label, i.enabled])).toEqual([
      ['home-lab — 0/2 ready GPU nodes, 2 GPUs', undefined],
      ['    gpu-0 — kubelet stopped posting node status', false],
      ['    gpu-1 — kubelet stopped posting node status', false],
    ]);
  });

  it(`shows at most ${TRAY_DOWN_NODES_MAX} and counts the rest`, () => {
    const lines = downNodeLines(trayContext(contextSnapshot('big', 'live', downInventory(9, UNKNOWN))), en);
    expect(lines).toHaveLength(TRAY_DOWN_NODES_MAX + 1);
    expect(lines.at(-1)).toEqual({ label: '    +4 more down', enabled: false });
  });

  it('says nothing for a healthy or an unreachable context', () => {
    expect(downNodeLines(trayContext(contextSnapshot('ok', 'live', inventory(3, 3))), en)).toEqual([]);
    expect(
      downNodeLines(trayContext(contextSnapshot('gone', 'unreachable', downInventory(2, UNKNOWN))), en),
    ).toEqual([]);
    expect(downNodeLines(trayContext(contextSnapshot('new', 'connecting', null)), en)).toEqual([]);
  });

  it('keeps a hostile node name and message to one short clean line', () => {
    const inv = downInventory(1, {
      name: `evil\u001b]0;owned\u0007\n${'n'.repeat(300)}`,
      readiness: 'False',
      not_ready_message: `x\u001b[2J${'y'.repeat(500)}`,
    });
    const [line] = downNodeLines(trayContext(contextSnapshot('lab', 'live', inv)), en);
    expect(line?.label.length).toBeLessThanOrEqual(80);
    expect(Array.from(line?.label ?? '').some((c) => (c.codePointAt(0) ?? 0) < 32)).toBe(false);
  });
});
