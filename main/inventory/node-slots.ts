/**
 * The GPU slots of one node: every GPU resource it advertises (whole GPUs, MIG instances of either
 * strategy, time-sliced replicas, passthrough/vGPU devices; never NICs), what kind of slot it is and which
 * product it belongs to, with capacity and allocatable. Requests are added by free-gpus.ts.
 */
import type { SlotKind } from '../../common/free-gpus.ts';
import { baseProduct, productText } from '../../common/free-product-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import { migProfileOfProduct } from './derive-mig.ts';
import { readGpuLabels } from './gpu-labels.ts';
import {
  GPU_RESOURCE,
  isGpuDeviceResource,
  LABEL,
  migProfileOfResource,
  RESOURCE_PREFIX,
  SHARED_RESOURCE,
} from './labels.ts';
import type { NodeFacts } from './node-facts.ts';
import { shareSlots } from './node-slots-share.ts';
import { parseCountQuantity } from './parse.ts';

export interface NodeSlot {
  resource: string;
  kind: SlotKind;
  profile: string | null;
  capacity: number;
  allocatable: number;
  physical: number | null;
}

export interface NodeSlots {
  product: string | null;
  slots: NodeSlot[];
}

/** Slots per facts object: the node cache replaces a node's facts on change and never mutates them. */
const memo = new WeakMap<NodeFacts, NodeSlots>();

export function nodeSlots(facts: NodeFacts): NodeSlots {
  const hit = memo.get(facts);
  if (hit !== undefined) return hit;
  const made = shareSlots(deriveSlots(facts));
  memo.set(facts, made);
  return made;
}

function deriveSlots(facts: NodeFacts): NodeSlots {
  const gpu = readGpuLabels(facts.labels);
  const names = new Set<string>();
  for (const m of [facts.capacity, facts.allocatable])
    for (const key of Object.keys(m)) if (key.startsWith(RESOURCE_PREFIX)) names.add(key);
  const slots: NodeSlot[] = [];
  for (const resource of [...names].sort()) {
    const kind = slotKind(resource, gpu.product, facts.labels);
    if (kind === null) continue;
    const capacity = count(facts.capacity[resource]);
    const allocatable = count(facts.allocatable[resource]);
    // A 0/0 slot is kept: pods still holding it (a device plugin gone under running pods) are overcommit,
    // which free-gpus.ts flags; it drops the 0/0 slots nobody requests.
    slots.push({
      resource,
      kind: kind.kind,
      profile: kind.profile,
      capacity,
      allocatable,
      physical: kind.kind === 'shared' && gpu.count > 0 ? gpu.count : null,
    });
  }
  return { product: gpu.product, slots };
}

function slotKind(
  resource: string,
  product: string | null,
  labels: Readonly<Record<string, string>>,
): { kind: SlotKind; profile: string | null } | null {
  if (resource === GPU_RESOURCE) {
    const single = labels[LABEL.migStrategy]?.trim() === 'single';
    const profile = single && product !== null ? migProfileOfProduct(product) : null;
    if (profile !== null) return { kind: 'mig', profile };
    if (product?.endsWith('-SHARED') === true) return { kind: 'shared', profile: null };
    return { kind: 'whole', profile: null };
  }
  if (resource === SHARED_RESOURCE) return { kind: 'shared', profile: null };
  const profile = migProfileOfResource(resource);
  if (profile !== null) return { kind: 'mig', profile };
  if (isGpuDeviceResource(resource)) return { kind: 'device', profile: null };
  return null;
}

function count(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const parsed = parseCountQuantity(raw);
  return parsed.ok ? parsed.value : 0;
}

/** The key a product's slots are summed under across nodes. */
export function productKey(
  product: string | null,
  slot: Pick<NodeSlot, 'kind' | 'profile' | 'resource'>,
): string {
  const base = product === null ? '' : baseProduct(product, slot.kind);
  return `${base}|${slot.kind}|${slot.profile ?? ''}|${slot.kind === 'device' ? slot.resource : ''}`;
}

const ENGLISH = translator('en');

/** The product label in English (the CLI, -o json, the keys people grep); the window words its facts. */
export function productLabel(
  product: string | null,
  slot: Pick<NodeSlot, 'kind' | 'profile' | 'resource'>,
): string {
  const label = slot.kind === 'device' ? slot.resource.slice(RESOURCE_PREFIX.length) : '';
  return productText({ product, kind: slot.kind, profile: slot.profile, label }, ENGLISH);
}
