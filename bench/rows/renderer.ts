/**
 * Row 7 (issue 7's renderer benchmark): the built window in Chromium with a 5,000-node context —
 * time to open the node table (first render) and to show one node's change pushed in a new snapshot —
 * against a plain, non-virtualized table of the same 5,000 rows drawn in the same page.
 */
import path from 'node:path';
import type { FleetHost, InvokeHandlers } from '../../main/fleet/host.ts';
import { PushHub } from '../../main/fleet/host.ts';
import { SnapshotPublisher } from '../../main/fleet/snapshot-publisher.ts';
import { startWebBridge } from '../../main/web/server.ts';
import { fleet } from '../../renderer/fixtures/homelab.ts';
import { largeContext } from '../../renderer/fixtures/large.ts';
import { launchChromium } from '../../test/e2e/browser.ts';
import { median } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const RUNS = 5;

/**
 * A host that answers the contract with a fixed 5,000-node snapshot (the engine is not what is measured
 * here), published as the app core does: one whole snapshot, then a `fleet:delta` per change.
 */
export function fixedHost() {
  const push = new PushHub();
  const publisher = new SnapshotPublisher((channel, payload) => push.emit(channel, payload));
  let snapshot = fleet([largeContext(5000)], 'large');
  const published = () => publisher.publish(snapshot);
  const handlers = {
    'fleet:snapshot': published,
    'fleet:focus': published,
    'contexts:list': () => [],
    'contexts:set-monitored': () => [],
    'alerts:log': () => [],
    'alerts:snooze': published,
    'alerts:resume': published,
    'writeback:install': () => ({ crd: 'existing', object: 'existing' }),
    'writeback:take-over': published,
    'settings:get': () => {
      throw new Error('not used');
    },
    'settings:update': () => {
      throw new Error('not used');
    },
    'app:info': () => ({ version: 'bench', mode: 'browser', demo: false, noKubeconfig: false, notices: [] }),
    'node:detail': () => {
      throw new Error('not used');
    },
    'kubectl:contexts': () => ({ current: 'large', contexts: ['large'], more: 0, error: null }),
    'kubectl:use-context': () => {
      throw new Error('not used');
    },
  } as InvokeHandlers;
  const host: FleetHost = { handlers, onPush: (l) => push.on(l) };
  const flip = (i: number) => {
    const ctx = snapshot.contexts[0];
    if (!ctx?.inventory) return;
    const nodes = ctx.inventory.nodes.map((n, k) => (k === i ? { ...n, ready: !n.ready } : n));
    snapshot = { ...snapshot, contexts: [{ ...ctx, inventory: { ...ctx.inventory, nodes } }] };
    publisher.publish(snapshot);
  };
  return { host, flip, push };
}

const twoFrames = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0))))';

export async function rendererRows(log: (s: string) => void): Promise<Row[]> {
  const { host, flip } = fixedHost();
  const bridge = await startWebBridge({ host, staticDir: path.join(ROOT, '.vite/renderer/main_window') });
  const browser = await launchChromium();
  const firsts: number[] = [];
  const updates: number[] = [];
  const touched: number[] = [];
  const plain: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      log(`renderer run ${run + 1}/${RUNS}`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(bridge.url);
      await page.getByTestId('context-card').first().waitFor();
      firsts.push(
        await page.evaluate<number>(`(async () => {
          const t0 = performance.now();
          document.querySelector('[data-testid="tab-nodes"]').click();
          while (!document.querySelector('[data-testid="node-row"]')) await new Promise((r) => setTimeout(r, 1));
          await ${twoFrames};
          return performance.now() - t0;
        })()`),
      );
      const rows = await page
        .getByTestId('node-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-node')));
      const target = rows[3] ?? 'gpu-0003';
      await page.evaluate(`(() => {
        window.__mutated = new Set();
        new MutationObserver((records) => {
          for (const r of records) {
            const row = (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest('[data-testid="node-row"]');
            if (row) window.__mutated.add(row.getAttribute('data-node'));
          }
        }).observe(document.querySelector('[data-testid="node-table"]'), { subtree: true, childList: true, characterData: true, attributes: true });
        const row = document.querySelector('[data-node="${target}"]');
        window.__before = row.textContent;
        window.__t0 = null;
      })()`);
      const index = Number(target.replace(/\D/g, ''));
      await page.evaluate('window.__t0 = performance.now()');
      flip(index);
      updates.push(
        await page.evaluate<number>(`(async () => {
          const row = () => document.querySelector('[data-node="${target}"]');
          while (row().textContent === window.__before) await new Promise((r) => setTimeout(r, 1));
          await ${twoFrames};
          return performance.now() - window.__t0;
        })()`),
      );
      touched.push(await page.evaluate<number>('window.__mutated.size'));
      plain.push(
        await page.evaluate<number>(`(async () => {
          const t0 = performance.now();
          const table = document.createElement('table');
          const body = document.createElement('tbody');
          for (let i = 0; i < 5000; i++) {
            const tr = document.createElement('tr');
            for (const v of ['gpu-' + i, 'true', 'H100 80GB HBM3', '8', '81559 MiB', 'container']) {
              const td = document.createElement('td');
              td.textContent = v;
              tr.appendChild(td);
            }
            body.appendChild(tr);
          }
          table.appendChild(body);
          document.body.appendChild(table);
          await ${twoFrames};
          const took = performance.now() - t0;
          table.remove();
          return took;
        })()`),
      );
      await page.close();
    }
  } finally {
    await browser.close();
    await bridge.close();
  }
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  return [
    {
      id: '7a',
      measure: 'Window: open the node table of a 5,000-node context, to painted (median of 5, Chromium)',
      ours: `${ms(median(firsts))} (virtualized: only the visible rows are in the DOM)`,
      baseline: `${ms(median(plain))} (a plain 5,000-row table, no framework)`,
      target: '–',
      met: null,
      raw: { firsts, plain },
    },
    {
      id: '7b',
      measure: 'Window: one node changes in a pushed 5,000-node snapshot, to painted (median of 5)',
      ours: `${ms(median(updates))}; DOM rows touched: ${Math.max(...touched)}`,
      baseline: '–',
      target: 'one row updated, not the table',
      met: Math.max(...touched) <= 1,
      raw: { updates, touched },
    },
  ];
}
