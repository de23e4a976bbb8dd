import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';

import { node } from '../fixtures/homelab.ts';
import { ageSince, formatAge, lastSeenText, productName, shortProduct, sinceText } from './format.ts';

const en = translator('en');

describe('shortProduct', () => {
  it.each([
    ['NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED', 'RTX 4070 Laptop GPU (shared)'],
    ['NVIDIA-GeForce-RTX-4070', 'RTX 4070'],
    ['NVIDIA-A100-SXM4-40GB', 'A100 SXM4 40GB'],
    ['Tesla-T4', 'Tesla T4'],
    ['NVIDIA-H100-80GB-HBM3-shared', 'H100 80GB HBM3 (shared)'],
  ])('%s → %s', (raw, short) => {
    expect(shortProduct(raw)).toBe(short);
  });
});

describe('productName', () => {
  it('words "(shared)" in the window language and keeps the product as the cluster labels it', () => {
    const raw = 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED';
    expect(productName(raw, en)).toBe('RTX 4070 Laptop GPU (shared)');
    expect(productName(raw, translator('ko'))).toBe('RTX 4070 Laptop GPU (공유)');
    expect(productName(raw, translator('ja'))).toBe('RTX 4070 Laptop GPU（共有）');
    expect(productName(raw, translator('zh-CN'))).toBe('RTX 4070 Laptop GPU（共享）');
    expect(productName('NVIDIA-A100-SXM4-40GB', translator('ko'))).toBe('A100 SXM4 40GB');
  });
});

describe('lastSeenText', () => {
  it('names what an unlabeled node last had', () => {
    const n = node('nuc2', { last_seen: { product: 'NVIDIA-GeForce-RTX-4070', count: 1, memory: 8188 } });
    expect(lastSeenText(n, en)).toBe('last seen: RTX 4070 ×1');
  });
  it('is null when the node was never seen with labels', () => {
    expect(lastSeenText(node('omen'), en)).toBeNull();
    expect(lastSeenText(node('omen', { last_seen: null }), en)).toBeNull();
  });
});

describe('ages', () => {
  it.each([
    [10_000, 'just now'],
    [180_000, '3 min'],
    [3 * 3600_000, '3 h'],
    [5 * 24 * 3600_000, '5 d'],
  ])('%i ms reads as %s', (ms, text) => {
    expect(formatAge(ms, en)).toBe(text);
  });
  it('is null for missing or unreadable times', () => {
    expect(ageSince(null, 0, en)).toBeNull();
    expect(ageSince('yesterday', 0, en)).toBeNull();
    expect(ageSince('2025-01-01T00:00:00Z', Date.parse('2025-01-01T00:03:00Z'), en)).toBe('3 min');
  });
});

describe('sinceText', () => {
  const at = Date.parse('2025-01-01T00:00:00Z');
  it('says how long a state has lasted, with its own words for just now', () => {
    expect(sinceText('2025-01-01T00:00:00Z', at + 3 * 3600_000, en)).toBe('since 3 h');
    expect(sinceText('2025-01-01T00:00:00Z', at + 10_000, en)).toBe('since just now');
    expect(sinceText('2025-01-01T00:00:00Z', at + 3 * 3600_000, translator('ko'))).toBe('3시간째');
    expect(sinceText('2025-01-01T00:00:00Z', at + 10_000, translator('ko'))).toBe('방금부터');
    expect(sinceText(null, at, en)).toBeNull();
  });
});
