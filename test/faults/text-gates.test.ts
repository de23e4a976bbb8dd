/**
 * Fault matrix, hostile text, one gate at a time: each place outside text becomes a sentence or a cell is
 * checked on its own (text-hostile.test.ts checks the sinks end to end, where the gates back each other up).
 */
import { describe, expect, it } from 'vitest';
import { CLUSTER_TEXT_MAX, SENTENCE_MAX } from '../../common/cluster-text.ts';
import { CliError, terminalLine } from '../../main/cli/io.ts';
import { ContextMonitor } from '../../main/fleet/context-monitor.ts';
import { readGpuLabels } from '../../main/inventory/gpu-labels.ts';
import { alignColumns } from '../../main/inventory/text-table.ts';
import { classifyNetworkError, errorFromResponse } from '../../main/kube/error-classify.ts';
import { KubeError } from '../../main/kube/errors.ts';
import { execStderr } from '../../main/kube/exec-credential.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

const ESC_AND_LINES = '\u001b[2J\u001b]0;title\u0007line one\nline\u202e two';
const clean = 'line one line two';
const status = (message: string) =>
  JSON.stringify({ kind: 'Status', message, reason: 'Forbidden', code: 403 });

describe('text gates', () => {
  it('KubeError: every sentence is one redacted line of at most SENTENCE_MAX', () => {
    const e = new KubeError('config', `${ESC_AND_LINES} token=abc123 ${'x'.repeat(5000)}`);
    expect(e.message.startsWith(`${clean} token=[redacted] x`)).toBe(true);
    expect(Array.from(e.message)).toHaveLength(SENTENCE_MAX);
  });

  it('errorFromResponse: the server message is gated and capped at CLUSTER_TEXT_MAX inside the sentence', () => {
    const e = errorFromResponse(403, status(`${ESC_AND_LINES}${'y'.repeat(5000)}`), {}, 'listing nodes');
    expect(e.message.startsWith(`Not allowed listing nodes: ${clean}y`)).toBe(true);
    expect(e.message.length).toBe('Not allowed listing nodes: '.length + CLUSTER_TEXT_MAX);
  });

  it('errorFromResponse: a Status cut short still gives its message, not raw JSON', () => {
    const cut = status(`webhook said no ${'z'.repeat(100_000)}`).slice(0, 65_536);
    const e = errorFromResponse(500, cut, {}, 'listing nodes');
    expect(e.message).toMatch(/^The API server failed while listing nodes \(500\): webhook said no z+…$/);
  });

  it('errorFromResponse: a text/plain body is gated too', () => {
    const e = errorFromResponse(502, `<html>\u001b[2J${ESC_AND_LINES}`, {}, 'listing nodes');
    expect(e.message).toBe(`The API server failed while listing nodes (502): <html>${clean}`);
  });

  it('classifyNetworkError: an unknown error message is gated, the host shown without userinfo', () => {
    const e = classifyNetworkError(new Error(ESC_AND_LINES), 'https://admin:pw@h.example:6443');
    expect(e.message).toBe(`The connection to h.example:6443 failed: ${clean}`);
    const long = classifyNetworkError(new Error('q'.repeat(5000)), 'https://h.example:6443');
    expect(long.message.length).toBe('The connection to h.example:6443 failed: '.length + CLUSTER_TEXT_MAX);
  });

  it('exec plugin stderr: first line, redacted, gated', () => {
    expect(execStderr('\n\u001b[31mclient_secret s3cr3tValue99\u001b[0m\nmore')).toBe(
      'client_secret [redacted]',
    );
  });

  it('CLI: CliError and terminalLine give one line', () => {
    expect(new CliError(`context "${ESC_AND_LINES}" does not exist`).message).toBe(
      `context "${clean}" does not exist`,
    );
    expect(terminalLine(`warning: ${ESC_AND_LINES}`)).toBe(`warning: ${clean}\n`);
  });

  it('CLI tables: a cell cannot break the table or reach the terminal raw', () => {
    const [, row] = alignColumns([
      ['NAME', 'PRODUCT'],
      ['n1', ESC_AND_LINES],
    ]);
    expect(row).toBe(`n1     ${clean}`);
  });

  it('GPU labels: a hostile product or workload value is gated', () => {
    const g = readGpuLabels({
      'nvidia.com/gpu.product': ESC_AND_LINES,
      'nvidia.com/gpu.workload.config': `vm\u001b[2J${'w'.repeat(500)}`,
    });
    expect(g.product).toBe(clean);
    expect(g.workload).toMatch(/^vmw+…$/);
    expect(g.workload?.length).toBe(128);
  });

  it('the window: write-back messages are gated, the server shown without credentials', () => {
    const monitor = new ContextMonitor(
      {
        context: 'x',
        server: 'https://admin:pw@h.example:6443/?token=abc',
        makeClient: () => {
          throw new Error('not started');
        },
        clock: new ManualClock(),
      },
      () => undefined,
    );
    monitor.setWriteback({
      phase: 'invalid',
      message: ESC_AND_LINES,
      lastWriteAt: null,
      writes: 0,
      skipped: 0,
    });
    const snap = monitor.snapshot();
    expect(snap.writeback.message).toBe(clean);
    expect(snap.server).toBe('https://h.example:6443');
  });
});
