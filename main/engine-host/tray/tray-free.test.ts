/** The tray's free-GPU headline and product submenus, from real figures (clusterFree), in two languages. */
import { describe, expect, it } from 'vitest';
import { translator } from '../../../common/i18n/translator.ts';
import { gfdLabels, rawNode } from '../../../test/fixtures/nodes.ts';
import { contextSnapshot, fleet, inventory } from '../../../test/fixtures/snapshots.ts';
import { clusterFree, unknownFree } from '../../inventory/free-gpus.ts';
import { type NodeFacts, trimNode } from '../../inventory/node-facts.ts';
import { trayFleet } from './tray-fleet.ts';
import { freeMenu, HEADLINE_MAX } from './tray-free.ts';
import { buildTrayModel } from './tray-model.ts';

const en = translator('en');
const gpuNode = (name: string, product: string, n: number) =>
  trimNode(
    rawNode({ name, labels: gfdLabels(product, n, 81920), capacity: { 'nvidia.com/gpu': String(n) } }),
  ) as NodeFacts;

const lab = clusterFree([gpuNode('a1', 'NVIDIA-A100-SXM4-80GB', 4)], []);
const home = clusterFree([gpuNode('r1', 'NVIDIA-GeForce-RTX-4090', 3)], []);

describe('the tray headline', () => {
  it('is the first line: free GPUs across clusters by product, with a submenu per product', () => {
    const model = buildTrayModel(
      trayFleet(
        fleet([
          contextSnapshot('lab', 'live', inventory(1, 1), { free: lab }),
          contextSnapshot('home', 'live', inventory(1, 1), { free: home }),
        ]),
      ),
      en,
    );
    expect(model.menu[0]).toEqual({
      label: '7 free GPUs: 4 × A100 SXM4 80GB (lab), 3 × RTX 4090 (home)',
      type: 'submenu',
      submenu: [
        {
          label: 'A100 SXM4 80GB — 4 free',
          type: 'submenu',
          submenu: [{ label: 'lab — 4 free of 4', enabled: false }],
        },
        {
          label: 'RTX 4090 — 3 free',
          type: 'submenu',
          submenu: [{ label: 'home — 3 free of 3', enabled: false }],
        },
      ],
    });
    expect(model.menu[1]).toEqual({ label: '', type: 'separator' });
  });

  it('is cut to fit a menu line, with "+N more"', () => {
    const many = Array.from({ length: 9 }, (_, i) =>
      contextSnapshot(`cluster-number-${i}`, 'live', inventory(1, 1), { free: lab }),
    );
    const item = freeMenu(trayFleet(fleet(many)).contexts, en);
    expect(item?.label.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(item?.label).toMatch(/^36 free GPUs: 4 × A100 SXM4 80GB \(cluster-number-0\), .*\+\d+ more$/);
  });

  it('says unknown, never 0, where pods are forbidden; leaves out a cluster where it is off', () => {
    const ctx = (name: string, free: ReturnType<typeof unknownFree>) =>
      contextSnapshot(name, 'live', inventory(1, 1), { free });
    const onlyUnknown = freeMenu(trayFleet(fleet([ctx('ro', unknownFree('forbidden'))])).contexts, en);
    expect(onlyUnknown?.label).toBe('Free GPUs unknown');
    expect(onlyUnknown?.submenu).toEqual([
      { label: 'ro — free GPUs unknown: pods are forbidden', enabled: false },
    ]);
    const partial = freeMenu(
      trayFleet(
        fleet([
          contextSnapshot('lab', 'live', inventory(1, 1), { free: lab }),
          ctx('ro', unknownFree('forbidden')),
        ]),
      ).contexts,
      en,
    );
    expect(partial?.label).toBe('4 free GPUs: 4 × A100 SXM4 80GB (lab) — unknown in 1 cluster');
    expect(freeMenu(trayFleet(fleet([ctx('off', unknownFree('off'))])).contexts, en)).toBeNull();
    // No free figures at all (an older engine, the controller read): no headline.
    expect(
      freeMenu(trayFleet(fleet([contextSnapshot('x', 'live', inventory(1, 1))])).contexts, en),
    ).toBeNull();
  });

  it('in Korean', () => {
    const item = freeMenu(
      trayFleet(fleet([contextSnapshot('lab', 'live', inventory(1, 1), { free: lab })])).contexts,
      translator('ko'),
    );
    expect(item?.label).toBe('사용 가능한 GPU 4개: 4 × A100 SXM4 80GB (lab)');
  });

  const shared = clusterFree(
    [
      trimNode(
        rawNode({
          name: 's1',
          labels: gfdLabels('NVIDIA-GeForce-RTX-4090-SHARED', 1, 24564),
          capacity: { 'nvidia.com/gpu.shared': '4' },
        }),
      ) as NodeFacts,
    ],
    [],
  );

  it('words shared GPUs in the language, with how many physical GPUs the replicas share', () => {
    const snap = fleet([contextSnapshot('home', 'live', inventory(1, 1), { free: shared })]);
    const ko = freeMenu(trayFleet(snap).contexts, translator('ko'));
    expect(ko?.label).toBe('사용 가능한 GPU 4개: 4 × RTX 4090 (공유) (home)');
    expect(ko?.submenu?.[0]).toEqual({
      label: 'RTX 4090 (공유) — 4개 사용 가능',
      type: 'submenu',
      submenu: [{ label: 'home — 4개 중 4개 사용 가능 · GPU 1개를 나눈 복제본 4개', enabled: false }],
    });
    const ja = freeMenu(trayFleet(snap).contexts, translator('ja'));
    expect(ja?.label).toContain('RTX 4090（共有）');
    expect(JSON.stringify(ja)).not.toMatch(/shared|replica/);
    expect(freeMenu(trayFleet(snap).contexts, en)?.submenu?.[0]?.submenu?.[0]?.label).toBe(
      'home — 4 free of 4 · 4 replicas of 1 GPU',
    );
  });

  it("marks last-known figures and the controller's, and lists with the language's separator", () => {
    const snap = fleet([
      contextSnapshot('lab', 'live', inventory(1, 1), { free: { ...lab, stale: true } }),
      contextSnapshot('home', 'live', inventory(1, 1), { free: { ...home, source: 'controller' } }),
    ]);
    const item = freeMenu(trayFleet(snap).contexts, en);
    expect(item?.label).toBe('7 free GPUs: 4 × A100 SXM4 80GB (lab) (stale), 3 × RTX 4090 (home)');
    expect(item?.submenu?.map((m) => m.submenu?.[0]?.label)).toEqual([
      'lab — 4 free of 4 (stale)',
      'home — 3 free of 3 (from the in-cluster controller)',
    ]);
    const ja = freeMenu(trayFleet(snap).contexts, translator('ja'));
    expect(ja?.label).toBe(
      `空き GPU 7 個: 4 × A100 SXM4 80GB（lab）（古い値）${translator('ja').t('common.listSeparator')}3 × RTX 4090（home）`,
    );
  });
});
