// Two validators that must agree: every inventory the engine builds from hostile nodes (any labels,
// any GPU quantities, ready or not, with a reason message), cut to size as write-back writes it, passes
// the CRD's OpenAPI schema (the same TypeBox type the CRD is generated from, with its limits: lengths,
// minimums, formats) and holds only integers the API server can store (int64, and exact in JSON).
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GpuInventoryStatus } from '../../common/inventory.ts';
import { validate } from '../../sim/crschema.ts';
import type { JsonObject } from '../../sim/types.ts';
import { rawNode } from '../../test/fixtures/nodes.ts';
import { buildInventory, trimNode } from '../inventory/index.ts';
import { buildCrd } from './crd.ts';
import { fitStatus, withoutNulls } from './status-writer.ts';

const quantity = fc.oneof(
  fc.constantFrom('0', '1', '8', '1e30', '99999999999999999999', '-1', '2.5', '1k', '1Ki', 'NaN', ''),
  fc.nat().map(String),
);
const labelValue = fc.oneof(
  fc.string({ maxLength: 63 }),
  fc.constantFrom('99999999999999999999', '1e309', '-1', '2.5', '00000000000000000001', '\u001b[2J'),
);
const gpuLabels = fc.dictionary(
  fc.constantFrom(
    'nvidia.com/gpu.product',
    'nvidia.com/gpu.count',
    'nvidia.com/gpu.memory',
    'nvidia.com/gpu.workload.config',
    'nvidia.com/gpu.present',
    'nvidia.com/mig-1g.10gb.count',
    'nvidia.com/gpu.replicas',
  ),
  labelValue,
);
const node = fc.record({
  name: fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$/),
  ready: fc.constantFrom('True', 'False', 'Unknown'),
  labels: gpuLabels,
  gpu: quantity,
  alloc: quantity,
  message: fc.string({ maxLength: 2000 }),
});

/** Every number in the value is an integer the API server stores exactly (int64 and JSON-safe), or a float. */
function unsafeIntegers(v: unknown, path = 'status', out: string[] = []): string[] {
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) out.push(`${path}: ${v}`);
  else if (Array.isArray(v)) for (const [i, x] of v.entries()) unsafeIntegers(x, `${path}[${i}]`, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) unsafeIntegers(x, `${path}.${k}`, out);
  return out;
}

const crdSchema = (buildCrd().spec.versions[0]?.schema.openAPIV3Schema ?? {}) as unknown as JsonObject;

describe('every inventory the engine builds passes the CRD schema', () => {
  it('from hostile nodes, as write-back writes it (fitted, nulls left out)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(node, { selector: (n) => n.name, minLength: 1, maxLength: 20 }), (nodes) => {
        const facts = nodes.flatMap((n) => {
          const f = trimNode(
            rawNode({
              name: n.name,
              ready: n.ready as 'True',
              labels: n.labels,
              capacity: { 'nvidia.com/gpu': n.gpu },
              allocatable: { 'nvidia.com/gpu': n.alloc },
              ...(n.ready === 'True' ? {} : { message: n.message, reason: 'KubeletNotReady' }),
            } as Parameters<typeof rawNode>[0]),
          );
          return f ? [f] : [];
        });
        const status = fitStatus(buildInventory(facts, new Map(), '2026-12-03T12:00:00Z'));
        expect([...Value.Errors(GpuInventoryStatus, status)].map((e) => `${e.path}: ${e.message}`)).toEqual(
          [],
        );
        const written = withoutNulls(status);
        expect(unsafeIntegers(written)).toEqual([]);
        const causes = validate(crdSchema, { status: written } as unknown as JsonObject, '', 'status');
        expect(causes).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
