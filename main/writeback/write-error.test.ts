import { describe, expect, it } from 'vitest';
import { KubeError } from '../kube/errors.ts';
import { TAKE_OVER_HINT, toWriteError, writeErrorFromResponse } from './write-error.ts';

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
