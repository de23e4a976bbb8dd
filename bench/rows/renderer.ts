/**
 * Row 7 (issue 7's renderer benchmark): the built window in Chromium with a 5,000-node context —
 * time to open the node table (first render) and to show one node's change pushed in a new snapshot —
 * against a plain, non-virtualized table of the same 5,000 rows drawn in the same page.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
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
    'forward:list': () => ({ targets: [], status: [] }),
    'forward:test': () => ({ ok: false, message: 'not used' }),
    'forward:save': () => ({ targets: [], status: [] }),
    'forward:remove': () => ({ targets: [], status: [] }),
    'forward:secret': () => ({ targets: [], status: [] }),
    'kubectl:use-context': () => {
      throw new Error('not used');
    },
    'timeline:range': () => {
      throw new Error('not used');
    },
    'timeline:summary': () => [],
  } as InvokeHandlers;
  const host: FleetHost = { handlers, onPush: (l) => push.on(l) };
  const flipped = (i: number) => {
    const ctx = snapshot.contexts[0];
    if (!ctx?.inventory) return snapshot;
    const nodes = ctx.inventory.nodes.map((n, k) => (k === i ? { ...n, ready: !n.ready } : n));
    return { ...snapshot, contexts: [{ ...ctx, inventory: { ...ctx.inventory, nodes } }] };
  };
  /** Node i flips, published as the app core publishes it: a `fleet:delta` with the one entry. */
  const flip = (i: number) => {
    snapshot = flipped(i);
    publisher.publish(snapshot);
  };
  let wholes = 0;
  /**
   * Node i flips, pushed the way every change was pushed before deltas: the whole snapshot (a stream of
   * its own, so the window takes it). `resume` then brings the publisher's stream up to date.
   */
  const flipWhole = (i: number) => {
    snapshot = flipped(i);
    push.emit('fleet:snapshot', { ...snapshot, epoch: `whole${++wholes}`, seq: 1 });
  };
  const resume = () => publisher.publish(snapshot);
  return { host, flip, flipWhole, resume, push };
}

/**
 * Arms the page to time node `target`'s next change: when the fleet push reached the page (its event
 * stream listeners are wrapped to note it, see `noteArrivals`), when the row's DOM changed, and when the
 * frame that shows it was painted; rows whose DOM changed meanwhile are counted.
 */
const armRow = (target: string) => `(() => {
  window.__mutated = new Set();
  window.__dom = undefined;
  const table = document.querySelector('[data-testid="node-table"]');
  const before = document.querySelector('[data-node="${target}"]').textContent;
  window.__update = new Promise((resolve) => {
    const mo = new MutationObserver((records) => {
      for (const r of records) {
        const row = (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest('[data-testid="node-row"]');
        if (row) window.__mutated.add(row.getAttribute('data-node'));
      }
      const now = document.querySelector('[data-node="${target}"]');
      if (window.__dom !== undefined || !now || now.textContent === before) return;
      window.__dom = performance.now();
      // A task queued from requestAnimationFrame runs after that frame is painted.
      requestAnimationFrame(() => setTimeout(() => { mo.disconnect(); resolve(performance.now()); }, 0));
    });
    mo.observe(table, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  window.__t0 = performance.now();
})()`;

const noteArrivals = `(() => {
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const noted = type === 'fleet:delta' || type === 'fleet:snapshot'
      ? function (event) { window.__arrived = performance.now(); return listener.call(this, event); }
      : listener;
    return add.call(this, type, noted, options);
  };
})()`;

interface FlipTimes {
  /** From the push's arrival in the page to the frame that shows the row painted. */
  painted: number;
  /** From the push's arrival to the row's DOM changed. */
  dom: number;
  /** From just before the host pushed (the page's clock) to painted: push, SSE, parse, apply, draw. */
  endToEnd: number;
  touched: number;
}

async function timeFlip(page: Page, target: string, push: () => void): Promise<FlipTimes> {
  await page.evaluate(armRow(target));
  push();
  const t = await page.evaluate<{
    arrived: number;
    dom: number;
    painted: number;
    t0: number;
    touched: number;
  }>(
    'window.__update.then((painted) => ({ arrived: window.__arrived, dom: window.__dom, painted, t0: window.__t0, touched: window.__mutated.size }))',
  );
  return {
    painted: t.painted - t.arrived,
    dom: t.dom - t.arrived,
    endToEnd: t.painted - t.t0,
    touched: t.touched,
  };
}

const twoFrames = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0))))';

export async function rendererRows(log: (s: string) => void): Promise<Row[]> {
  const { host, flip, flipWhole, resume } = fixedHost();
  const bridge = await startWebBridge({ host, staticDir: path.join(ROOT, '.vite/renderer/main_window') });
  const browser = await launchChromium();
  const firsts: number[] = [];
  const deltas: FlipTimes[] = [];
  const wholes: FlipTimes[] = [];
  const plain: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      log(`renderer run ${run + 1}/${RUNS}`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // When each fleet delta reaches the page: the event stream's listeners are wrapped to note it first.
      await page.addInitScript(noteArrivals);
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
      const index = Number(target.replace(/\D/g, ''));
      // One flip of another row first, unmeasured: a window has seen deltas before the one that counts.
      const warm = rows[5] ?? 'gpu-0005';
      await timeFlip(page, warm, () => flip(Number(warm.replace(/\D/g, ''))));
      deltas.push(await timeFlip(page, target, () => flip(index)));
      wholes.push(await timeFlip(page, target, () => flipWhole(index)));
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
      resume();
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
      measure:
        "Window: one node of 5,000 flips, pushed as a fleet:delta, from the push's arrival in the page to painted (median of 5)",
      ours: `${ms(median(deltas.map((d) => d.painted)))} (DOM updated after ${ms(median(deltas.map((d) => d.dom)))}; from the host's push ${ms(median(deltas.map((d) => d.endToEnd)))}); DOM rows touched: ${Math.max(...deltas.map((d) => d.touched))}`,
      baseline: `${ms(median(wholes.map((d) => d.painted)))} (the same flip pushed as the whole 5,000-node snapshot, as before; from the host's push ${ms(median(wholes.map((d) => d.endToEnd)))})`,
      target: '≤ 16 ms; one row updated, not the table',
      met: median(deltas.map((d) => d.painted)) <= 16 && Math.max(...deltas.map((d) => d.touched)) <= 1,
      raw: { deltas, wholes },
    },
  ];
}
