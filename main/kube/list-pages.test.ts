import { afterEach, describe, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { NODES } from '../fleet/node-watch.ts';
import { systemClock } from './clock.ts';
import { ContextClient } from './context-client.ts';
import { KubeError } from './errors.ts';
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
    client.getJson = (path, what, timeoutMs, more) => {
      order.push(path.includes('continue=') ? 'get next' : 'get first');
      return getJson(path, what, timeoutMs, more);
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

  it("eager: asks for the next page once this page's head names its token, before the page has arrived", async () => {
    s = await startSimContext({ scenario: 'large:30' });
    const client = new ContextClient(s.context());
    // Watches the real client's calls (each still goes to the simulator over HTTPS): when each page is
    // asked for and when its whole answer is in.
    const order: string[] = [];
    let asked = 0;
    const getJson = client.getJson.bind(client);
    client.getJson = async (path, what, timeoutMs, more) => {
      const n = ++asked;
      order.push(`ask ${n}`);
      const page = await getJson(path, what, timeoutMs, more);
      order.push(`got ${n}`);
      return page;
    };
    const r = await listObjects(client, NODES, { ...opts(10, () => false), eagerNext: true });
    client.close();
    expect(r?.items.map((n) => n.name)).toEqual(s.sim.control.listNodeNames());
    expect(r?.pages).toBe(3);
    expect(order).toEqual(['ask 1', 'ask 2', 'got 1', 'ask 3', 'got 2', 'got 3']);
  });

  it.each([false, true])(
    'a continue token that expires (410) the moment it is sent starts the list over (eager: %s)',
    async (eagerNext) => {
      s = await startSimContext({ scenario: 'large:600' });
      const { control } = s.sim;
      const client = new ContextClient(s.context());
      // The first request with a continue token: change a node and compact just before it goes out.
      // Each request is noted in the order it was sent, with how it ended.
      let compacted = false;
      const sent: [boolean, string][] = [];
      const getJson = client.getJson.bind(client);
      client.getJson = async (path, what, timeoutMs, more) => {
        if (path.includes('continue=') && !compacted) {
          compacted = true;
          control.removeNode(control.listNodeNames()[599] ?? '');
          control.compact();
        }
        const note: [boolean, string] = [path.includes('continue='), 'pending'];
        sent.push(note);
        try {
          const page = await getJson(path, what, timeoutMs, more);
          note[1] = 'ok';
          return page;
        } catch (e) {
          note[1] = e instanceof KubeError ? e.kind : 'thrown';
          throw e;
        }
      };
      const r = await listObjects(client, NODES, { ...opts(250, () => false), eagerNext });
      client.close();
      expect(r?.items.map((n) => n.name)).toEqual(control.listNodeNames());
      expect(r?.items).toHaveLength(599);
      expect(r?.pages).toBe(4);
      expect(sent).toEqual([
        [false, 'ok'],
        [true, 'expired'],
        [false, 'ok'],
        [true, 'ok'],
        [true, 'ok'],
      ]);
    },
  );

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
