import { describe, expect, it } from 'vitest';
import { FOCUS_LINK_MAX, focusLink, parseFocusHash } from './focus-link.ts';

const BASE = 'http://127.0.0.1:8377/';

describe('focus links', () => {
  it.each([
    [{ context: 'homelab', node: 'nuc1' }, `${BASE}#node=homelab/nuc1`],
    [{ context: 'kind-gpu', node: null }, `${BASE}#context=kind-gpu`],
    // Context names may hold anything kubeconfig allows: '/', '#', spaces and non-ASCII are encoded.
    [
      { context: 'arn:aws:eks/x y#z', node: 'ip-10-0-0-1' },
      `${BASE}#node=arn%3Aaws%3Aeks%2Fx%20y%23z/ip-10-0-0-1`,
    ],
    [{ context: '연구실', node: 'n1' }, `${BASE}#node=%EC%97%B0%EA%B5%AC%EC%8B%A4/n1`],
  ])('links %o as %s, and reads it back', (target, link) => {
    expect(focusLink(BASE, target)).toBe(link);
    expect(parseFocusHash(new URL(link).hash)).toEqual(target);
  });

  it('falls back to the cluster, then the address, when a link would be too long', () => {
    const long = 'n'.repeat(FOCUS_LINK_MAX);
    expect(focusLink(BASE, { context: 'lab', node: long })).toBe(`${BASE}#context=lab`);
    expect(focusLink(BASE, { context: long, node: null })).toBe(BASE);
  });

  it.each([
    '',
    '#',
    '#node=lab',
    '#context=lab/n1',
    '#node=%E0%A4%A/n1',
    '#other=lab',
    '#node=lab/n1/extra',
    `#context=${'x'.repeat(254)}`,
  ])('reads no target from %s', (hash) => {
    expect(parseFocusHash(hash)).toBeNull();
  });
});
