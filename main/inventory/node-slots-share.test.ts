// Slots of alike nodes are one frozen object (bench row 3).
import { describe, expect, it } from 'vitest';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';
import { nodeSlots } from './node-slots.ts';

const facts = (name: string, gpus: string, product = 'NVIDIA-L40S'): NodeFacts => {
  const f = trimNode(
    rawNode({ name, labels: gfdLabels(product, 4, 46068), capacity: { 'nvidia.com/gpu': gpus } }),
  );
  if (f === null) throw new Error('fixture did not trim');
  return f;
};

describe('nodeSlots shares alike nodes’ slots', () => {
  it('same product and slots → the same object; different → not', () => {
    const a = nodeSlots(facts('a', '4'));
    expect(nodeSlots(facts('b', '4'))).toBe(a);
    expect(nodeSlots(facts('c', '2'))).not.toBe(a);
    expect(nodeSlots(facts('c', '2')).slots[0]?.capacity).toBe(2);
    expect(nodeSlots(facts('d', '4', 'NVIDIA-H100-80GB-HBM3'))).not.toBe(a);
  });

  it('is frozen: a mutation attempt throws', () => {
    const a = nodeSlots(facts('a', '4'));
    expect(() => a.slots.push({ ...(a.slots[0] as NonNullable<(typeof a.slots)[0]>) })).toThrow(TypeError);
    expect(() => {
      (a.slots[0] as { allocatable: number }).allocatable = 0;
    }).toThrow(TypeError);
    expect(nodeSlots(facts('b', '4')).slots[0]?.allocatable).toBe(4);
  });
});
