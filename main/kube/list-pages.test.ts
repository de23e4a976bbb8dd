import { afterEach, describe, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { NODES } from '../fleet/node-watch.ts';
import { systemClock } from './clock.ts';
import { ContextClient } from './context-client.ts';
import { listObjects } from './list-pages.ts';

let s: SimContext | null = null;
const opts = (pageSize: number, isCancelled: () => boolean) => ({
  pageSize,
  requestTimeoutMs: 10_000,
  clock: systemClock,
  isCancelled,
});
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

describe('listObjects of NODES against the simulator', () => {
  it('starts the list over when a continue token expires (410), never mixing two snapshots', async () => {
    s = await startSimContext({ scenario: 'large:600' });
    const { control } = s.sim;
    const client = new ContextClient(s.context());
    let pages = 0;
    // Called after each page: after the first one, change a node and compact, so page 2's token expires.
    const afterPage = () => {
      if (++pages === 1) {
        control.removeNode(control.listNodeNames()[599] ?? '');
        control.compact();
      }
      return false;
    };
    const r = await listObjects(client, NODES, opts(250, afterPage));
    client.close();
    expect(r?.items).toHaveLength(599);
    expect(new Set(r?.items.map((n) => n.name)).size).toBe(599);
    expect(r?.pages).toBe(4);
    const lists = control.requestLog().filter((x) => x.path.startsWith('/api/v1/nodes?limit='));
    expect(lists.map((x) => [x.path.includes('continue='), x.status])).toEqual([
      [false, 200],
      [true, 410],
      [false, 200],
      [true, 200],
      [true, 200],
    ]);
  });

  it("asks for the next page before trimming this page's items (the round trip overlaps the work)", async () => {
    s = await startSimContext({ scenario: 'large:30' });
    const client = new ContextClient(s.context());
    const order: string[] = [];
    // Watches the real client's calls (each still goes to the simulator over HTTPS).
    const getJson = client.getJson.bind(client);
    client.getJson = (path, what, timeoutMs) => {
      order.push(path.includes('continue=') ? 'get next' : 'get first');
      return getJson(path, what, timeoutMs);
    };
    let trimmed = 0;
    const r = await listObjects(
      client,
      {
        ...NODES,
        trim: (raw) => {
          if (trimmed++ % 10 === 0) order.push('trim');
          return NODES.trim(raw);
        },
      },
      opts(10, () => false),
    );
    client.close();
    expect(r?.items).toHaveLength(30);
    expect(order).toEqual(['get first', 'get next', 'trim', 'get next', 'trim', 'trim']);
  });

  it('returns null when cancelled between pages', async () => {
    s = await startSimContext({ scenario: 'large:60' });
    const client = new ContextClient(s.context());
    const r = await listObjects(
      client,
      NODES,
      opts(10, () => true),
    );
    client.close();
    expect(r).toBeNull();
  });
});
