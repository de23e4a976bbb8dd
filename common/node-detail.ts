/**
 * The detail of one node, fetched on demand when the user opens it (window panel, `gpu-fleet describe`):
 * why it is (not) ready, its GPU facts, recent events and the GPU pods on it. Plain serializable data with
 * no credentials; every string that came from the cluster has passed `clusterText()` before it lands here.
 * Field names of `conditions`, `taints`, `events` and `pods` are the CLI's `describe -o json` contract.
 */
import type { GpuNodeEntry } from './inventory.ts';
import type { NodeTelemetry } from './telemetry.ts';

export interface NodeConditionView {
  type: string;
  /** 'True' | 'False' | 'Unknown' as the API says; anything else is shown as it came, capped. */
  status: string;
  reason: string | null;
  message: string | null;
  /** lastTransitionTime, RFC 3339, or null. */
  since: string | null;
  /** lastHeartbeatTime, RFC 3339, or null. */
  heartbeat: string | null;
  /** True when this condition says something is wrong (Ready≠True, or a pressure/problem condition True). */
  problem: boolean;
}

export interface NodeTaintView {
  key: string;
  value: string | null;
  effect: string;
}

export interface NodeEventView {
  /** 'Normal' | 'Warning' */
  type: string;
  reason: string;
  message: string;
  count: number;
  /** RFC 3339 of the last occurrence, or null. */
  last: string | null;
  /** Which component reported it (kubelet, node-controller…), or null. */
  source: string | null;
  /** The Event's metadata.uid, so the timeline keeps each event once past the server's expiry; absent when it had none. */
  uid?: string;
  /** RFC 3339 of the first occurrence (firstTimestamp, else the creation time), or null. */
  first?: string | null;
}

export interface GpuPodView {
  namespace: string;
  name: string;
  phase: string;
  /** GPUs requested (sum over containers of every `nvidia.com/*` GPU resource limit/request). */
  gpus: number;
}

export interface NodeSystemView {
  kubeletVersion: string | null;
  osImage: string | null;
  kernelVersion: string | null;
  containerRuntime: string | null;
  architecture: string | null;
}

/** GPU facts read from the node's labels beyond the inventory entry (driver, CUDA, MIG config…). */
export interface NodeGpuFacts {
  family: string | null;
  driver: string | null;
  cuda: string | null;
  migConfig: string | null;
  migState: string | null;
  /** Age of `nvidia.com/gfd.timestamp` in seconds when the label is present and parses. */
  gfdAgeSeconds: number | null;
}

/**
 * One reason a GPU node is in trouble, most telling first (main/diagnosis/gpu-why.ts): the GPU health
 * signals other tools write on the node (NVSentinel, Node Problem Detector, the EKS node monitoring
 * agent), a cordon, the device plugin withdrawing GPUs, GPU labels gone, Ready, recent Warning events.
 * `text` is English (the CLI's); `xids` are the XID codes the signal names.
 */
export interface WhyLine {
  source:
    | 'nvsentinel'
    | 'node-problem-detector'
    | 'eks-node-monitoring'
    | 'cordon'
    | 'device-plugin'
    | 'labels'
    | 'ready'
    | 'events';
  text: string;
  xids: number[];
}

export interface NodeDetail {
  context: string;
  name: string;
  /** RFC 3339 time the detail was read. */
  fetchedAt: string;
  /** Null when the node is not a GPU node. */
  gpu: GpuNodeEntry | null;
  gpuFacts: NodeGpuFacts;
  conditions: NodeConditionView[];
  taints: NodeTaintView[];
  unschedulable: boolean;
  system: NodeSystemView;
  /** Newest first, capped. */
  events: NodeEventView[];
  pods: GpuPodView[];
  /**
   * DCGM telemetry of a GPU node (`describe -o json` shows its GPUs as `gpus[]`); null for a node
   * without GPUs, or when it was not read (the CLI's `--no-telemetry`).
   */
  telemetry: NodeTelemetry | null;
  /** Parts that could not be read, one sentence each (e.g. "events: forbidden"), so the rest still shows. */
  partial: string[];
  /** Why the node is in trouble, most telling first; empty for a healthy node. */
  why: WhyLine[];
}
