/**
 * Fault matrix, node names from a server that is not Kubernetes: a real API server stores only DNS-1123
 * subdomain names, so a name with an escape sequence, a newline, a bidi override or an upper-case letter
 * comes from something else, and could forge what notifications, the tray and the window show. Through the
 * real list + watch path (HTTPS, the engine): such nodes are refused, never reach the inventory or the
 * snapshot, and are counted, not dropped silently: the snapshot and an engine event say how many.
 */
import { describe, expect, it } from 'vitest';
import { logEngine } from '../../main/fleet/engine-log.ts';
import { Logger, type LogSink } from '../../main/log/logger.ts';
import { rawNode } from '../fixtures/nodes.ts';
import { nodeList, sendJson, startBrokenApi, watchLines } from './broken-api.ts';
import { startRun } from './harness.ts';
import { caData, contextFor, tempDir } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

const HOSTILE_NAMES = ['gpu\u001b[2J-evil', 'gpu-1\nALERT all nodes down', 'gpu\u202e1-evil'];
const LATER = 'Upper-Case-Node';

const gpuNode = (name: string, rv: string) =>
  rawNode({
    name,
    labels: { 'nvidia.com/gpu.count': '1' },
    capacity: { 'nvidia.com/gpu': '1' },
    resourceVersion: rv,
  });

const event = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;

describe('nodes with names no API server stores', () => {
  it('are refused on list and watch, counted in the snapshot, and the count follows deletes', async () => {
    const doc = JSON.parse(nodeList()) as { items: unknown[] };
    for (const [i, name] of HOSTILE_NAMES.entries()) doc.items.push(gpuNode(name, String(90 + i)));
    const good = 'gpu-late';
    const api = await startBrokenApi({
      list: sendJson(JSON.stringify(doc)),
      watch: watchLines([
        event('ADDED', gpuNode(LATER, '101')),
        // Names are immutable: a MODIFIED of a refused node is not counted twice.
        event('MODIFIED', gpuNode(HOSTILE_NAMES[0] as string, '102')),
        event('DELETED', gpuNode(HOSTILE_NAMES[1] as string, '103')),
        event('ADDED', gpuNode(good, '104')),
      ]),
    });
    const ctx = contextFor(
      tempDir(),
      { server: api.url, 'certificate-authority-data': caData(api.caPem) },
      { token: 't' },
    );
    const run = startRun([ctx]);
    const lines: string[] = [];
    const sink: LogSink = {
      write: (line: string) => {
        lines.push(line);
      },
    };
    const stopLog = logEngine(run.engine, new Logger(sink, 'info'));
    cleanup(
      () => api.close(),
      () => run.stop(),
      stopLog,
    );

    await run.waitFor(
      () => run.ctx().inventory?.nodes.some((n) => n.name === good) === true,
      'the last good watch event',
    );
    await run.waitFor(() => run.ctx().ignoredNodes?.count === 3, 'three ignored nodes in the snapshot');
    const counts = run.events.flatMap((e) => (e.type === 'ignored' ? [e.count] : []));
    expect(counts).toEqual([3, 4, 3]);
    expect(run.ctx().ignoredNodes?.message).toBe(
      '3 nodes with invalid names were ignored (not Kubernetes node names).',
    );

    // None of them reached the inventory or anything the window receives.
    const inv = run.ctx().inventory;
    expect(inv?.nodes.map((n) => n.name)).not.toContain(LATER);
    expect(inv?.total_gpu_nodes).toBe(inv?.nodes.length);
    const shown = JSON.stringify(run.engine.snapshot());
    for (const bad of [...HOSTILE_NAMES, LATER])
      expect(shown).not.toContain(JSON.stringify(bad).slice(1, -1));
    expect(shown).not.toContain('evil');
    // And the log says so, once per change.
    const warned = lines.filter((l) => l.includes('ignored nodes'));
    expect(warned).toHaveLength(3);
    expect(warned.join('\n')).not.toContain('evil');
  });
});
