import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../kube/error-classify.ts';
import { KubeError } from '../kube/errors.ts';
import { TAKE_OVER_HINT, toWriteError, WriteError, writeErrorFromResponse } from './write-error.ts';

const status = (code: number, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    code,
    ...extra,
  });

const ctx = {
  what: 'writing the GpuInventory status',
  missing: { phase: 'crd-missing' as const, message: () => 'The CRD is not installed.' },
};

describe('writeErrorFromResponse (bodies from real-api 05, 07, 08)', () => {
  it.each([
    [
      'a 403 on a ConfigMap apply names verb, resource and namespace',
      403,
      status(
        403,
        'configmaps "gpu-node-status" is forbidden: User "rig-readonly" cannot patch resource "configmaps" in API group "" in the namespace "kube-system"',
      ),
      'forbidden',
      'The user "rig-readonly" may not patch configmaps in the namespace "kube-system" (403 Forbidden).',
    ],
    [
      'a 403 on the status subresource names the group',
      403,
      status(
        403,
        'gpuinventories.gpufleet.io "cluster" is forbidden: User "u" cannot patch resource "gpuinventories/status" in API group "gpufleet.io" at the cluster scope',
      ),
      'forbidden',
      'The user "u" may not patch gpuinventories/status in API group "gpufleet.io" at the cluster scope (403 Forbidden).',
    ],
    [
      'a text 404 is the missing CRD',
      404,
      '404 page not found\n',
      'crd-missing',
      'The CRD is not installed.',
    ],
    [
      'a 409 names the other manager and the fields',
      409,
      status(
        409,
        'Apply failed with 2 conflicts: conflicts with "other-agent" with subresource "status":\n- .status.nodes',
        {
          reason: 'Conflict',
          details: {
            causes: [
              { reason: 'FieldManagerConflict', field: '.status.nodes' },
              { reason: 'FieldManagerConflict', field: '.status.total_gpus' },
            ],
          },
        },
      ),
      'conflict',
      `While writing the GpuInventory status: owned by field manager "other-agent", which manages .status.nodes, .status.total_gpus (409 Conflict). ${TAKE_OVER_HINT}.`,
    ],
    [
      'a 400 without apiVersion/kind is invalid, with the server message',
      400,
      status(400, 'invalid object type: /, Kind=', { reason: 'BadRequest' }),
      'invalid',
      'The API server refused writing the GpuInventory status (400): invalid object type: /, Kind=',
    ],
    [
      'the apply type error 500 is invalid',
      500,
      status(
        500,
        'failed to create typed patch object (/cluster; g/v1, Kind=GpuInventory): .status.total_gpus: expected numeric',
      ),
      'invalid',
      'The API server refused writing the GpuInventory status (500): failed to create typed patch object (/cluster; g/v1, Kind=GpuInventory): .status.total_gpus: expected numeric',
    ],
    [
      'a 422 is invalid',
      422,
      status(422, 'x is invalid'),
      'invalid',
      'The API server refused writing the GpuInventory status (422): x is invalid',
    ],
    [
      'another 5xx is a (transient) error',
      503,
      status(503, 'etcd unavailable'),
      'error',
      'The API server failed while writing the GpuInventory status (503): etcd unavailable',
    ],
    [
      'a 401 is an error about credentials',
      401,
      status(401, 'Unauthorized'),
      'error',
      'The cluster rejected the credentials, or they have expired (401).',
    ],
  ])('%s', (_name, code, body, phase, message) => {
    const e = writeErrorFromResponse(code, body, ctx);
    expect([e.phase, e.message, e.status]).toEqual([phase, message, code]);
  });

  it('turns a transport failure into an error phase with its sentence', () => {
    const e = toWriteError(new KubeError('unreachable', '127.0.0.1:1 refused the connection.'), 'x');
    expect([e.phase, e.message]).toEqual(['error', '127.0.0.1:1 refused the connection.']);
  });
});

describe('every write error sentence passes the text gate (shownText)', () => {
  const hostile = '\u001b[2Jwebhook denied\nFAKE: all good client_secret=s3cr3tValue99 done';
  const clean = (text: string) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
    expect(text).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(text).not.toContain('s3cr3tValue99');
    expect(text.length).toBeLessThanOrEqual(600);
  };

  it.each([400, 403, 404, 409, 413, 422, 500, 503])(
    'a %i Status with escapes, a newline and a secret',
    (code) => {
      const e = writeErrorFromResponse(code, status(code, hostile), {
        ...ctx,
        missing: { phase: 'crd-missing', message: (said) => `The CRD is not installed: ${said}` },
      });
      clean(e.message);
      if (code !== 404 && code !== 409)
        expect(e.message).toContain('webhook denied FAKE: all good client_secret=[redacted] done');
    },
  );

  it('a manager name and fields from a 409 are gated too', () => {
    const e = writeErrorFromResponse(
      409,
      status(409, 'Apply failed with 1 conflict', {
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "\u001b]0;x\u0007helm\nclient_secret=s3cr3tValue99"',
              field: `.data.${'\u001b[2J'}k\nclient_secret=s3cr3tValue99`,
            },
          ],
        },
      }),
      ctx,
    );
    clean(e.message);
    expect(e.phase).toBe('conflict');
    // The owner the window names in "Take over" is gated the same way.
    expect(e.owners).toHaveLength(1);
    for (const o of e.owners) {
      clean(o);
      expect(o.length).toBeLessThanOrEqual(80);
    }
  });

  it('a long Status message and a thrown error are capped and redacted', () => {
    const e = writeErrorFromResponse(400, status(400, `${hostile} ${'x'.repeat(5000)}`), ctx);
    clean(e.message);
    clean(toWriteError(new Error(hostile), 'writing').message);
    clean(toWriteError(new KubeError('unreachable', hostile), 'writing').message);
  });

  it('a WriteError built elsewhere (crd-shape, writers) is gated by its constructor', () => {
    clean(new WriteError('invalid', `The CRD differs: ${hostile}`).message);
  });
});

describe("a WriteError carries the kube layer's kind (it keeps it across IPC and HTTP)", () => {
  it.each([
    [403, status(403, 'x is forbidden'), 'forbidden'],
    [404, '404 page not found\n', 'not-found'],
    [409, status(409, 'Apply failed with 1 conflict: conflict with "helm"'), 'conflict'],
    [409, status(409, 'Operation cannot be fulfilled'), 'conflict'],
    [400, status(400, 'bad'), 'invalid'],
    [422, status(422, 'x is invalid'), 'invalid'],
    [413, status(413, 'too big'), 'too-large'],
    [500, status(500, 'etcdserver: request is too large'), 'too-large'],
    [401, status(401, 'Unauthorized'), 'unauthorized'],
    [503, status(503, 'etcd unavailable'), 'server'],
  ])('%i → %s', (code, body, kind) => {
    expect(writeErrorFromResponse(code, body, ctx).kind).toBe(kind);
  });

  it("keeps a transport failure's kind, and names a bug 'failed'", () => {
    expect(toWriteError(new KubeError('tls', 'bad cert'), 'x').kind).toBe('tls');
    expect(toWriteError(new Error('boom'), 'x').kind).toBe('failed');
  });

  it('the 401 sentence is the one the watcher says', () => {
    const watcher = errorFromResponse(401, status(401, 'Unauthorized'), {}, 'listing nodes');
    expect(writeErrorFromResponse(401, status(401, 'Unauthorized'), ctx).message).toBe(watcher.message);
  });

  it('a Status cut short gives its message, as the watcher reads it, not raw JSON', () => {
    const cut = status(503, 'etcd unavailable right now').slice(0, -8);
    expect(writeErrorFromResponse(503, cut, ctx).message).toBe(
      'The API server failed while writing the GpuInventory status (503): etcd unavailable right now',
    );
  });
});
