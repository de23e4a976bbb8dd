/**
 * One rule per kind of name, in two forms that must agree: the checks (isNodeName, isNamespaceName,
 * isApiGroupName) and the JSON schemas the settings file and the IPC patch use. A name one accepts and the
 * other refuses would be accepted at one door and dropped at the next.
 */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ApiGroupNameSchema,
  isApiGroupName,
  isLabelValue,
  isNamespaceName,
  isNodeName,
  isQualifiedName,
  NamespaceNameSchema,
  NodeNameSchema,
} from './k8s-names.ts';

const pairs: Array<[string, (v: unknown) => boolean, TSchema]> = [
  ['node name', isNodeName, NodeNameSchema],
  ['namespace', isNamespaceName, NamespaceNameSchema],
  ['API group', isApiGroupName, ApiGroupNameSchema],
];

// Names near the rules' edges: the allowed characters, dots, dashes, upper case, lengths around the caps.
const nameLike = fc.oneof(
  fc.stringMatching(/^[a-z0-9][-a-z0-9.]{0,70}[a-z0-9]?$/),
  fc.string({ unit: fc.constantFrom('a', 'z', '0', '-', '.', 'A', '_', ' ', 'é'), maxLength: 80 }),
  fc.nat(300).map((n) => 'a'.repeat(n)),
  fc.nat(130).map((n) => `${'a'.repeat(n)}.${'b'.repeat(n)}`),
);

describe('Kubernetes names: the checks and their schemas agree', () => {
  it.each(pairs)('%s', (_what, check, schema) => {
    fc.assert(
      fc.property(nameLike, (name) => {
        expect(Value.Check(schema, name), JSON.stringify(name)).toBe(check(name));
      }),
      { seed: 20261203, numRuns: 2000 },
    );
  });

  it.each([
    ['gpu-node-1', true, true, false],
    ['gpu.node.1', true, false, true],
    ['gpufleet.io', true, false, true],
    ['GPU-1', false, false, false],
    ['-a', false, false, false],
    ['a..b', false, false, false],
    ['', false, false, false],
    ['a'.repeat(63), true, true, false],
    ['a'.repeat(64), true, false, false],
    ['a'.repeat(254), false, false, false],
  ])('%j: node %s, namespace %s, group %s', (name, node, ns, group) => {
    expect([isNodeName(name), isNamespaceName(name), isApiGroupName(name)]).toEqual([node, ns, group]);
  });
});

describe('qualified names (label and taint keys)', () => {
  it.each([
    ['nvidia.com/gpu', true],
    ['node-role.kubernetes.io/control-plane', true],
    ['Node_Role.x', true],
    ['gpu', true],
    [`${'a'.repeat(253)}/${'b'.repeat(63)}`, true],
    [`${'a'.repeat(254)}/b`, false],
    [`a/${'b'.repeat(64)}`, false],
    ['Nvidia.com/gpu', false],
    ['nvidia..com/gpu', false],
    ['/gpu', false],
    ['nvidia.com/', false],
    ['a/b/c', false],
    ['-gpu', false],
    ['', false],
  ])('%j: %s', (key, ok) => {
    expect(isQualifiedName(key)).toBe(ok);
  });
});

describe('label values (also taint and toleration values)', () => {
  it.each([
    ['', true],
    ['present', true],
    ['A100_80GB.v2-x', true],
    ['v'.repeat(63), true],
    ['v'.repeat(64), false],
    ['-gpu', false],
    ['gpu-', false],
    ['.gpu', false],
    ['a b', false],
    ['a/b', false],
  ])('%j: %s', (value, ok) => {
    expect(isLabelValue(value)).toBe(ok);
  });
});
