/**
 * Fault matrix, broken answers (a raw HTTPS fault injector, broken-api.ts): truncated and malformed JSON,
 * HTML, cut connections and garbage objects. Each shows its named state and words, keeps what it had,
 * and never raises a ready-drop alert.
 */
import { describe, expect, it } from 'vitest';
import type { ConnectionPhase } from '../../common/connection.ts';
import { largeNodes } from '../../sim/scenarios/large.ts';
import type { KObj } from '../../sim/types.ts';
import {
  type Answer,
  type BrokenApi,
  cutOff,
  nodeList,
  sendJson,
  startBrokenApi,
  watchLines,
} from './broken-api.ts';
import { expectCalm, startRun } from './harness.ts';
import { caData, contextFor, tempDir } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function runAgainst(answers: { list: Answer; watch?: Answer }) {
  const api: BrokenApi = await startBrokenApi(answers);
  const ctx = contextFor(
    tempDir(),
    { server: api.url, 'certificate-authority-data': caData(api.caPem) },
    { token: 't' },
  );
  const run = startRun([ctx]);
  cleanup(
    () => api.close(),
    () => run.stop(),
  );
  return { api, run };
}

const LIST = nodeList();

interface Broken {
  fault: string;
  list: Answer;
  phase: ConnectionPhase;
  message: RegExp;
}

const BROKEN_LISTS: Broken[] = [
  {
    fault: 'a truncated JSON list',
    list: sendJson(LIST.slice(0, 5000)),
    phase: 'unreachable',
    message: /did not answer like a Kubernetes API server while listing nodes \(bad JSON\)/,
  },
  {
    fault: 'an HTML page (a proxy or a login portal)',
    list: sendJson('<html><body>Sign in to continue</body></html>'),
    phase: 'unreachable',
    message: /did not answer like a Kubernetes API server while listing nodes \(bad JSON\)/,
  },
  {
    fault: 'JSON that is not a node list',
    list: sendJson('{"kind":"Status","apiVersion":"v1","status":"Success"}'),
    phase: 'unreachable',
    message: /did not answer the node list like a Kubernetes API server/,
  },
  {
    fault: 'a list cut off half-way',
    list: cutOff(LIST),
    phase: 'unreachable',
    message: /cut off|was reset/,
  },
];

describe('a broken LIST: the named state, no inventory invented, no alert', () => {
  it.each(BROKEN_LISTS)('$fault → $phase', async (f) => {
    const { run } = await runAgainst({ list: f.list });
    await run.waitForPhase(f.phase);
    expect(run.ctx().connection.message).toMatch(f.message);
    await expectCalm(run, null);
    expect(run.alerts).toEqual([]);
    expect(run.engine.snapshot().health).toBe('unreachable');
  });

  it('garbage items inside a valid list are skipped, the rest is used', async () => {
    const doc = JSON.parse(LIST) as { items: unknown[] };
    doc.items.push(null, 42, 'node', { metadata: {} }, { metadata: { name: '' } });
    const { run } = await runAgainst({ list: sendJson(JSON.stringify(doc)) });
    const inv = await run.live();
    expect(inv.total_gpu_nodes).toBeGreaterThan(0);
    expect(inv.nodes.every((n) => /^node-\d\d$/.test(n.name))).toBe(true);
  });
});

const MODIFIED = (o: unknown) => `${JSON.stringify({ type: 'MODIFIED', object: o })}\n`;

interface BrokenWatch {
  fault: string;
  watch: Answer;
  phase: ConnectionPhase;
  message: RegExp;
}

const BROKEN_WATCHES: BrokenWatch[] = [
  {
    fault: 'a watch line that is not JSON',
    watch: watchLines(['this is not json\n']),
    phase: 'reconnecting',
    message: /sent a watch event that is not JSON/,
  },
  {
    fault: 'a watch cut in the middle of an event',
    watch: watchLines(['{"type":"MODIFIED","object":{"metadata":{"name":"node-01"'], true),
    phase: 'reconnecting',
    message: /ended the watch in the middle of an event/,
  },
  {
    fault: 'an ERROR event that is not 410',
    watch: watchLines([
      `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' } })}\n`,
    ]),
    phase: 'reconnecting',
    message: /failed while watching nodes \(500 InternalError\): etcdserver: request timed out/,
  },
];

describe('a broken WATCH after a good list: the named state, the inventory kept (stale), no alert', () => {
  it.each(BROKEN_WATCHES)('$fault → $phase', async (f) => {
    const { run } = await runAgainst({ list: sendJson(LIST), watch: f.watch });
    await run.waitFor(
      () => run.ctx().connection.phase === f.phase && f.message.test(run.ctx().connection.message ?? ''),
      `${f.phase} with the right words`,
    );
    const before = run.events.flatMap((e) => (e.type === 'inventory' ? [e.inventory] : [])).at(-1) ?? null;
    expect(before?.total_gpu_nodes).toBeGreaterThan(0);
    await expectCalm(run, before);
  });

  it('objects that are not nodes in the stream are ignored; the watch stays live and keeps going', async () => {
    const node = largeNodes(20)[1] as KObj;
    const changed = {
      ...node,
      metadata: {
        ...node.metadata,
        resourceVersion: '200',
        labels: { ...(node.metadata.labels as Record<string, string>), 'nvidia.com/gpu.count': '3' },
      },
    };
    const { run } = await runAgainst({
      list: sendJson(LIST),
      watch: watchLines([
        MODIFIED({ foo: 1 }),
        MODIFIED([1, 2]),
        MODIFIED({ metadata: { name: 7 } }),
        MODIFIED(changed),
      ]),
    });
    const name = String(node.metadata.name);
    await run.waitFor(
      () => run.ctx().inventory?.nodes.find((n) => n.name === name)?.count === 3,
      'the good event',
    );
    expect(run.ctx().connection.phase).toBe('live');
    expect(run.states().map((st) => st.phase)).toEqual(['connecting', 'live']);
    // large:20 has two nodes whose device plugin withdrew GPUs: that alert is right; a drop is not.
    // (The alert may come a coalesce step after the inventory: wait for it rather than race it.)
    await run.waitFor(() => run.alerts.length > 0, 'the gpus-withdrawn alert');
    expect(run.alerts.map((a) => a.kind)).toEqual(['gpus-withdrawn']);
  });
});
