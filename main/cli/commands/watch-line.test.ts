/** `watch -o json` connection lines keep their English shape: the catalog key is the window's. */
import { describe, expect, it } from 'vitest';
import { KubeError } from '../../kube/errors.ts';
import { eventLine } from './watch.ts';

describe('watch -o json: connection lines', () => {
  it('print the English sentence and no catalog key', () => {
    const err = new KubeError('unreachable', { key: 'kubeError.refused', vars: { host: 'h:6443' } });
    const state = {
      phase: 'unreachable' as const,
      message: err.message,
      words: err.words ?? undefined,
      since: '2026-12-01T10:00:00.000Z',
      lastLiveAt: null,
      attempt: 3,
      retryAt: null,
    };
    const line = eventLine({ type: 'connection', context: 'lab', state });
    expect(JSON.parse(line ?? '')).toEqual({
      type: 'connection',
      context: 'lab',
      phase: 'unreachable',
      message: 'h:6443 refused the connection; the API server may be down.',
      since: '2026-12-01T10:00:00.000Z',
      lastLiveAt: null,
      attempt: 3,
      retryAt: null,
    });
  });
});
