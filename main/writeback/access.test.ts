import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
import { ACCESS, describeNeed, missingAccess, requireAccess } from './access.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'empty' });
});
afterAll(async () => {
  await sc?.cleanup();
});

const needs = [
  ...ACCESS.installCrd(),
  ...ACCESS.writeStatus('gpufleet.io'),
  ...ACCESS.writeConfigMap('kube-system'),
];

describe('SelfSubjectAccessReview checks against the sim', () => {
  it('finds nothing missing for the admin', async () => {
    const admin = new ContextClient(sc.context('sim-admin'));
    expect(await missingAccess(admin, needs)).toEqual([]);
    await expect(requireAccess(admin, needs)).resolves.toBeUndefined();
    admin.close();
  });

  it('names every verb and resource the read-only user lacks', async () => {
    const ro = new ContextClient(sc.context('sim-readonly'));
    expect((await missingAccess(ro, needs)).map(describeNeed)).toEqual([
      'create customresourcedefinitions in API group "apiextensions.k8s.io" at the cluster scope',
      'get gpuinventories in API group "gpufleet.io" at the cluster scope',
      'patch gpuinventories/status in API group "gpufleet.io" at the cluster scope',
      'get configmaps in the namespace "kube-system"',
      'create configmaps in the namespace "kube-system"',
      'patch configmaps in the namespace "kube-system"',
    ]);
    await expect(requireAccess(ro, ACCESS.writeStatus('gpufleet.io'))).rejects.toMatchObject({
      phase: 'forbidden',
      message:
        'Not allowed to get gpuinventories in API group "gpufleet.io" at the cluster scope; nor to patch gpuinventories/status in API group "gpufleet.io" at the cluster scope.',
    });
    ro.close();
  });
});
