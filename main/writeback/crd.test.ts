import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { GpuInventoryStatus } from '../../common/inventory.ts';
import { buildCrd, DEFAULT_CRD_GROUP, validateGroup } from './crd.ts';
import { type OpenApiSchema, toOpenApi } from './openapi.ts';

/** Walks a structural schema and returns every place that breaks Kubernetes' structural rules. */
function structuralProblems(schema: OpenApiSchema, at = '$'): string[] {
  const problems: string[] = [];
  if (!schema.type && !schema['x-kubernetes-preserve-unknown-fields']) problems.push(`${at}: no type`);
  if ('anyOf' in schema || 'oneOf' in schema || '$id' in schema) problems.push(`${at}: TypeBox leftovers`);
  for (const [name, prop] of Object.entries(schema.properties ?? {}))
    problems.push(...structuralProblems(prop, `${at}.${name}`));
  if (schema.items) problems.push(...structuralProblems(schema.items, `${at}[]`));
  return problems;
}

describe('GpuInventory CRD', () => {
  const crd = buildCrd();
  const version = crd.spec.versions[0];

  it('has the names, scope, subresource and printer columns of SPEC.md', () => {
    expect(crd.metadata.name).toBe(`gpuinventories.${DEFAULT_CRD_GROUP}`);
    expect(crd.spec.scope).toBe('Cluster');
    expect(crd.spec.names).toMatchObject({
      kind: 'GpuInventory',
      plural: 'gpuinventories',
      shortNames: ['gpuinv'],
    });
    expect(version?.name).toBe('v1');
    expect(version?.subresources).toEqual({ status: {} });
    expect(version?.additionalPrinterColumns.map((c) => c.jsonPath)).toEqual([
      '.status.ready_gpu_nodes',
      '.status.total_gpu_nodes',
      '.status.total_gpus',
      '.metadata.creationTimestamp',
    ]);
  });

  it('derives the status schema from the TypeBox definition, structurally', () => {
    const status = version?.schema.openAPIV3Schema.properties.status;
    expect(status).toEqual(toOpenApi(GpuInventoryStatus));
    expect(status?.required).toEqual([
      'observed_at',
      'total_gpu_nodes',
      'ready_gpu_nodes',
      'total_gpus',
      'nodes',
    ]);
    const node = status?.properties?.nodes?.items;
    expect(node?.properties?.product).toEqual({ type: 'string', nullable: true });
    // Nullable fields are not required: an apply leaves nulls out.
    expect(node?.required).toEqual(['name', 'ready', 'count']);
    expect(node?.properties?.readiness).toEqual({ type: 'string', enum: ['True', 'False', 'Unknown'] });
    expect(node?.properties?.count).toEqual({ type: 'integer', minimum: 0 });
    expect(structuralProblems(status ?? {})).toEqual([]);
  });

  it('uses a configured group and refuses an invalid one', () => {
    expect(buildCrd('gpu.example.org').spec.group).toBe('gpu.example.org');
    expect(validateGroup('nodots')).toMatch(/not a valid API group/);
    expect(validateGroup('Upper.Case')).toMatch(/not a valid API group/);
    expect(() => buildCrd('bad group')).toThrow(/not a valid API group/);
  });

  it('accepts what the TypeBox schema accepts (a sample status)', () => {
    const sample = {
      observed_at: '2026-11-29T21:00:00Z',
      total_gpu_nodes: 1,
      ready_gpu_nodes: 0,
      total_gpus: 0,
      nodes: [
        { name: 'nuc2', ready: false, product: null, count: 0, memory: null, workload: 'vm-passthrough' },
      ],
    };
    expect(Value.Check(GpuInventoryStatus, sample)).toBe(true);
  });
});

describe('status apply body', () => {
  it('carries apiVersion and kind, and leaves null fields out', async () => {
    const { statusApplyBody } = await import('./status-writer.ts');
    const body = statusApplyBody('gpufleet.io', {
      observed_at: '2026-11-29T21:00:00Z',
      total_gpu_nodes: 1,
      ready_gpu_nodes: 0,
      total_gpus: 0,
      nodes: [
        { name: 'nuc2', ready: false, product: null, count: 0, memory: null, workload: 'vm-passthrough' },
      ],
    });
    expect(body).toMatchObject({
      apiVersion: 'gpufleet.io/v1',
      kind: 'GpuInventory',
      metadata: { name: 'cluster' },
    });
    expect(JSON.stringify(body)).not.toContain('null');
    expect((body.status as { nodes: object[] }).nodes[0]).toEqual({
      name: 'nuc2',
      ready: false,
      count: 0,
      workload: 'vm-passthrough',
    });
  });
});
