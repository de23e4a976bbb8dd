/**
 * The GpuInventory CustomResourceDefinition, generated from the status schema in common/inventory.ts
 * (one source of truth). The group is configurable so users of an existing CRD of the same shape can
 * point the app at it.
 */
import { GpuInventoryStatus } from '../../common/inventory.ts';
import { isApiGroupName } from '../../common/k8s-names.ts';
import { DEFAULT_CRD_GROUP } from '../../common/settings.ts';
import { toOpenApi } from './openapi.ts';

// The default group is a settings default, so it lives in common/ (settings import nothing of write-back).
export { DEFAULT_CRD_GROUP };
export const CRD_VERSION = 'v1';
export const CRD_KIND = 'GpuInventory';
export const CRD_PLURAL = 'gpuinventories';
/** One object per cluster. */
export const INVENTORY_OBJECT_NAME = 'cluster';

export function validateGroup(group: string): string | null {
  if (!isApiGroupName(group)) {
    return `"${group}" is not a valid API group: use a lowercase DNS name with at least one dot, like ${DEFAULT_CRD_GROUP}`;
  }
  return null;
}

export function crdName(group: string): string {
  return `${CRD_PLURAL}.${group}`;
}

export function buildCrd(group: string = DEFAULT_CRD_GROUP) {
  const problem = validateGroup(group);
  if (problem) throw new Error(problem);
  const status = toOpenApi(GpuInventoryStatus);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(group), labels: { 'app.kubernetes.io/managed-by': 'gpu-fleet' } },
    spec: {
      group,
      scope: 'Cluster',
      names: {
        kind: CRD_KIND,
        listKind: `${CRD_KIND}List`,
        plural: CRD_PLURAL,
        singular: 'gpuinventory',
        shortNames: ['gpuinv'],
      },
      versions: [
        {
          name: CRD_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            {
              name: 'Ready',
              type: 'integer',
              description: 'GPU nodes whose Ready condition is True',
              jsonPath: '.status.ready_gpu_nodes',
            },
            { name: 'Nodes', type: 'integer', description: 'GPU nodes', jsonPath: '.status.total_gpu_nodes' },
            {
              name: 'GPUs',
              type: 'integer',
              description: 'sum of GPUs over GPU nodes',
              jsonPath: '.status.total_gpus',
            },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'The GPU nodes of this cluster as GPU Fleet last observed them.',
              properties: {
                spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                status: status,
              },
            },
          },
        },
      ],
    },
  };
}
