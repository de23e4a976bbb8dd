import type { LanguageSetting } from './i18n/locales.ts';
import type { TelemetrySettingsView } from './telemetry.ts';
import type { TimelineSettingsView } from './timeline.ts';

/** The user-editable settings as the window shows and edits them (no credentials, ever). */

/** Our default API group for write-back (after the app id io.gpufleet.app); users of an earlier operator's CRD set theirs. */
export const DEFAULT_CRD_GROUP = 'gpufleet.io';

/**
 * Where the write-back ConfigMap goes unless the user chose another namespace: the one default of the
 * app, the CLI and the in-cluster controller (its manifests grant it this one ConfigMap there). kube-system
 * exists in every cluster, so write-back from a workstation works without creating a namespace first, and
 * it is where the earlier operator of the same shape kept `gpu-node-status`.
 */
export const DEFAULT_CONFIGMAP_NAMESPACE = 'kube-system';

export type Theme = 'system' | 'light' | 'dark';

/**
 * Where a context's inventory comes from: `nodes` (the app watches every Node itself), `controller` (only
 * the in-cluster controller's GpuInventory and Lease), `auto` (the controller while its Lease is fresh,
 * else nodes).
 */
export type InventorySource = 'auto' | 'nodes' | 'controller';
export const INVENTORY_SOURCES: readonly InventorySource[] = ['auto', 'nodes', 'controller'];
export const DEFAULT_INVENTORY_SOURCE: InventorySource = 'auto';
/** The namespace of the controller's Lease unless the user chose another for a context. */
export const DEFAULT_CONTROLLER_NAMESPACE = 'gpu-fleet';
/** The Lease the in-cluster controller holds (its leader election). */
export const CONTROLLER_LEASE_NAME = 'gpu-fleet-controller';

export interface AlertRulesView {
  /** How long ready GPU nodes must stay dropped before an alert (0 = at once). */
  holdDownMs: number;
  /** How long a cluster must stay unreachable before an alert. */
  unreachableAfterMs: number;
  /** Alert when a Ready node's allocatable GPUs fall below its capacity. */
  withdrawnGpus: boolean;
  /** A GPU hotter than this (°C, DCGM telemetry) for the hold-down raises an alert. */
  gpuHotC: number;
  /** Alert when no GPU of a product is free in a cluster for the hold-down (off by default). */
  noFreeGpu: boolean;
}

export interface SettingsView {
  monitoredContexts: string[];
  alertRules: AlertRulesView;
  /** Context name → write the GpuInventory / ConfigMap back into that cluster. */
  writeBack: Record<string, boolean>;
  /**
   * Context name → write-back may take over what another field manager owns there (force-apply). Off
   * unless the user turned it on for that context; it has effect only where write-back is on.
   */
  writeBackTakeOver: Record<string, boolean>;
  /** Context name → inventory source; a context not listed uses DEFAULT_INVENTORY_SOURCE. */
  source: Record<string, InventorySource>;
  /** Context name → namespace of the controller's Lease; a context not listed uses DEFAULT_CONTROLLER_NAMESPACE. */
  controllerNamespace: Record<string, string>;
  /** Context name → false turns the pods watch for free GPUs off there; a context not listed has it on. */
  freeGpus: Record<string, boolean>;
  crdGroup: string;
  configMapNamespace: string;
  launchAtLogin: boolean;
  theme: Theme;
  /** The window's, tray's and notifications' language: 'auto' follows the OS (or the browser). */
  language: LanguageSetting;
  /** DCGM telemetry in the background (common/telemetry.ts). */
  telemetry: TelemetrySettingsView;
  /** Contexts that reach the same cluster are one card, one watch and one set of alerts (default true). */
  mergeSameCluster: boolean;
  /** The timeline's retention, size cap and energy price (common/timeline.ts). */
  timeline: TimelineSettingsView;
}

export type SettingsPatch = Partial<SettingsView>;

/**
 * Whether write-back is on for a context: only an own `true` counts, so a context named `toString` or
 * `constructor` is never opted in by Object.prototype.
 */
export function writeBackOptedIn(writeBack: Readonly<Record<string, boolean>>, context: string): boolean {
  return Object.hasOwn(writeBack, context) && writeBack[context] === true;
}

/** Whether the user allowed write-back to take over another manager's fields in a context: an own `true`. */
export function takeOverOptedIn(takeOver: Readonly<Record<string, boolean>>, context: string): boolean {
  return Object.hasOwn(takeOver, context) && takeOver[context] === true;
}

/** A context's inventory source: only an own, known value counts (hostile names cannot reach the prototype). */
export function sourceFor(
  source: Readonly<Record<string, InventorySource>>,
  context: string,
): InventorySource {
  const v = Object.hasOwn(source, context) ? source[context] : undefined;
  return v !== undefined && INVENTORY_SOURCES.includes(v) ? v : DEFAULT_INVENTORY_SOURCE;
}

/** Whether free GPUs (a watch on the GPU pods) are on for a context: on unless an own `false` says off. */
export function freeGpusOn(freeGpus: Readonly<Record<string, boolean>>, context: string): boolean {
  return !(Object.hasOwn(freeGpus, context) && freeGpus[context] === false);
}

/** A context's controller namespace: an own value, else the default. */
export function controllerNamespaceFor(
  namespaces: Readonly<Record<string, string>>,
  context: string,
): string {
  const v = Object.hasOwn(namespaces, context) ? namespaces[context] : undefined;
  return typeof v === 'string' && v !== '' ? v : DEFAULT_CONTROLLER_NAMESPACE;
}
