import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { CONFIGMAP_FIELD_MANAGER, configMapData, dataEqual, ownedData } from './configmap-writer.ts';

const node = (name: string, ready: boolean) => ({
  name,
  ready,
  product: null,
  count: 1,
  memory: null,
  workload: 'container',
});
const inv = (nodes: ReturnType<typeof node>[]): GpuInventoryStatus => ({
  observed_at: '2026-11-29T21:00:00Z',
  total_gpu_nodes: nodes.length,
  ready_gpu_nodes: nodes.filter((n) => n.ready).length,
  total_gpus: nodes.length,
  nodes,
});

describe('configMapData', () => {
  it('has one compact JSON line per GPU node and a summary; a node named "summary" cannot collide', () => {
    const data = configMapData(inv([node('a', true), node('summary', false)]));
    expect(data).toEqual({
      summary: '{"ready_gpu_nodes":1,"total_gpu_nodes":2,"total_gpus":2}',
      a: '{"count":1,"memory":null,"name":"a","product":null,"ready":true,"workload":"container"}',
      'node.summary':
        '{"count":1,"memory":null,"name":"summary","product":null,"ready":false,"workload":"container"}',
    });
  });

  it('does not depend on observed_at or on key order in an entry', () => {
    const a = inv([node('a', true)]);
    const b = {
      ...a,
      observed_at: '2030-01-01T00:00:00Z',
      nodes: [Object.fromEntries(Object.entries(node('a', true)).reverse()) as ReturnType<typeof node>],
    };
    expect(dataEqual(configMapData(a), configMapData(b))).toBe(true);
  });
});

describe('ownedData', () => {
  const object = (manager: string) => ({
    metadata: {
      managedFields: [
        { manager, operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {}, 'f:gone': {} } } },
        { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:data': { 'f:theirs': {} } } },
      ],
    },
    data: { a: '1', gone: '2', theirs: '3' },
  });

  it('is the keys this manager applied, so other keys never cause writes but our stale keys do', () => {
    const held = ownedData(object(CONFIGMAP_FIELD_MANAGER), CONFIGMAP_FIELD_MANAGER);
    expect(held).toEqual({ a: '1', gone: '2' });
    expect(dataEqual({ a: '1' }, held)).toBe(false);
    expect(dataEqual({ a: '1', gone: '2' }, held)).toBe(true);
  });

  it('owns nothing in an object another manager created, and nothing at all when it is missing', () => {
    expect(ownedData(object('someone-else'), CONFIGMAP_FIELD_MANAGER)).toEqual({});
    expect(ownedData(null, CONFIGMAP_FIELD_MANAGER)).toBeNull();
  });
});
