/**
 * Permission checks before write-back does anything, with SelfSubjectAccessReview (what
 * `kubectl auth can-i` uses): every user may create one, and it answers for their own identity.
 * The answer is a list of what is missing, each in words ("create customresourcedefinitions in API group
 * "apiextensions.k8s.io" at the cluster scope"), so the UI can say exactly what to grant.
 */

import { asRecord } from '../../common/json-guards.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { CONFIGMAP_NAME } from './configmap-writer.ts';
import { CRD_PLURAL, INVENTORY_OBJECT_NAME } from './crd.ts';
import { toWriteError, WriteError, writeErrorFromResponse } from './write-error.ts';

export interface AccessNeed {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export const ACCESS = {
  installCrd: (): AccessNeed[] => [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
  ],
  writeStatus: (group: string): AccessNeed[] => [
    { verb: 'get', group, resource: CRD_PLURAL, name: INVENTORY_OBJECT_NAME },
    { verb: 'patch', group, resource: CRD_PLURAL, subresource: 'status', name: INVENTORY_OBJECT_NAME },
  ],
  /** Apply is a PATCH; when the object is missing the server also needs create. */
  createInventory: (group: string): AccessNeed[] => [{ verb: 'create', group, resource: CRD_PLURAL }],
  writeConfigMap: (namespace: string): AccessNeed[] => [
    { verb: 'get', group: '', resource: 'configmaps', namespace, name: CONFIGMAP_NAME },
    { verb: 'create', group: '', resource: 'configmaps', namespace },
    { verb: 'patch', group: '', resource: 'configmaps', namespace, name: CONFIGMAP_NAME },
  ],
};

/** "patch gpuinventories/status in API group "gpufleet.io" at the cluster scope" */
export function describeNeed(n: AccessNeed): string {
  const resource = n.subresource ? `${n.resource}/${n.subresource}` : n.resource;
  const group = n.group ? ` in API group "${n.group}"` : '';
  const scope = n.namespace ? `in the namespace "${n.namespace}"` : 'at the cluster scope';
  return `${n.verb} ${resource}${group} ${scope}`;
}

/** Asks the API server about each need; returns the ones not allowed. Throws WriteError if it cannot ask. */
export async function missingAccess(
  client: ContextClient,
  needs: readonly AccessNeed[],
): Promise<AccessNeed[]> {
  const answers = await Promise.all(needs.map((n) => allowed(client, n)));
  return needs.filter((_n, i) => !answers[i]);
}

/** Throws a 'forbidden' WriteError naming everything missing, or resolves when all is allowed. */
export async function requireAccess(client: ContextClient, needs: readonly AccessNeed[]): Promise<void> {
  const missing = await missingAccess(client, needs);
  if (missing.length === 0) return;
  throw new WriteError('forbidden', `Not allowed to ${missing.map(describeNeed).join('; nor to ')}.`, 403);
}

async function allowed(client: ContextClient, need: AccessNeed): Promise<boolean> {
  const resourceAttributes = Object.fromEntries(
    Object.entries(need).filter(([, v]) => v !== undefined && v !== ''),
  );
  const body = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes },
  };
  const what = 'checking permissions (SelfSubjectAccessReview)';
  try {
    const res = await client.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
    if (res.status < 200 || res.status > 299)
      throw writeErrorFromResponse(res.status, res.body, {
        what,
        missing: {
          phase: 'error',
          message: () => 'The cluster does not serve SelfSubjectAccessReview (404).',
        },
      });
    return asRecord(asRecord(JSON.parse(res.body)).status).allowed === true;
  } catch (e) {
    throw toWriteError(e, what);
  }
}
