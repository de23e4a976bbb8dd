/** The fleet snapshot: everything the window and the tray show, with no credentials in it. */

import type { ConnectionState } from './connection.ts';
import type { ClusterFree } from './free-gpus.ts';
import type { GpuInventoryStatus } from './inventory.ts';
import type { TelemetrySummary } from './telemetry.ts';

export interface HistoryPoint {
  /** RFC 3339 */
  at: string;
  ready: number;
  total: number;
  gpus: number;
}

export type WritebackPhase =
  | 'off'
  | 'idle'
  | 'writing'
  | 'forbidden'
  | 'crd-missing'
  /** A CRD of that name exists with another shape or schema than the one write-back writes. */
  | 'crd-mismatch'
  | 'conflict'
  | 'invalid'
  | 'error';

export interface WritebackState {
  phase: WritebackPhase;
  message: string | null;
  lastWriteAt: string | null;
  writes: number;
  skipped: number;
  /**
   * In the `conflict` phase: who owns what write-back would write (field managers such as "helm", or a
   * managed-by label), through the text gate. Absent in every other phase.
   */
  owners?: string[];
}

/**
 * Where a context's inventory comes from right now. `active` is what is read: the in-cluster controller's
 * GpuInventory, the app's own watch on Nodes, or nothing (source `controller` while the controller is
 * stale or unreadable). `message` is the one sentence why, when it is not what the setting asks for
 * (e.g. auto fell back to nodes because the Lease is stale).
 */
export interface SourceState {
  setting: 'auto' | 'nodes' | 'controller';
  active: 'controller' | 'nodes' | null;
  message: string | null;
  /** The controller's inventory was made to fit the API server: entries in short form / GPU nodes not listed. */
  compacted?: boolean;
  omitted?: number;
  /** The controller's Lease as last seen: its holder and when the app counts it as last renewed (RFC 3339). */
  holder?: string | null;
  renewedAt?: string | null;
  /** Write-back is on for the context, but the app does not write while the controller (which writes it) is read. */
  writebackPaused?: boolean;
}

export interface ContextSnapshot {
  context: string;
  /** The server address for display only: scheme://host:port/path, never userinfo or query (server-url.ts). */
  server: string | null;
  connection: ConnectionState;
  /** Last known inventory; kept (and marked stale) while the cluster is unreachable. */
  inventory: GpuInventoryStatus | null;
  stale: boolean;
  history: HistoryPoint[];
  writeback: WritebackState;
  /**
   * Nodes the server sent that were ignored (a name no real API server stores, such as one with control
   * characters; not a Node object), and the sentence the window shows. Absent when there are none.
   */
  ignoredNodes?: { count: number; message: string };
  /** DCGM telemetry seen so far: the hottest GPU and any XID (absent until something was scraped). */
  telemetry?: TelemetrySummary;
  /** Where the inventory comes from (absent from engines that know only nodes). */
  source?: SourceState;
  /**
   * The other kubeconfig contexts that reach this same cluster (same server and CA): watched once,
   * through `context`, and shown on its card. Absent when no other context does.
   */
  sameCluster?: string[];
  /** This context's own alert pause: RFC 3339 end or `'until resumed'`; absent when it has none. */
  alertsPausedUntil?: string;
  /**
   * GPU nodes the alert policy holds as flapping (their readiness changed too often; no alerts until they
   * settle): the context stays degraded meanwhile, even while they are Ready. Absent when there are none.
   */
  flapping?: string[];
  /** Free GPUs by node and product (common/free-gpus.ts); absent while the inventory comes from the controller. */
  free?: ClusterFree;
}

/** Worst-first order of the states the tray icon can show. */
export type FleetHealth = 'unreachable' | 'down' | 'degraded' | 'all-ready' | 'idle' | 'paused';

export interface FleetSnapshot {
  contexts: ContextSnapshot[];
  focused: string | null;
  /** Alerts paused for every context: RFC 3339 end of the pause, `'until resumed'` while paused until the user resumes, null when not paused. */
  alertsPausedUntil: string | null;
  health: FleetHealth;
  /** RFC 3339 */
  generatedAt: string;
}

/** A kubeconfig context as the UI lists it (names only, never credentials). */
export interface KubeContextInfo {
  name: string;
  cluster: string;
  /** As in ContextSnapshot.server: no userinfo, no query. */
  server: string | null;
  user: string;
  namespace: string | null;
  current: boolean;
  monitored: boolean;
  /** Where this context was defined (file name only). */
  source: string;
}

/**
 * kubectl's contexts for the "kubectl context" switcher (tray submenu, window): the names in kubeconfig
 * order and the current one. Switching writes the user's kubeconfig and happens only when the user picks
 * a name; monitoring never changes it.
 */
export interface KubectlContexts {
  /** The merged current-context, null when unset or naming no context. */
  current: string | null;
  /** At most KUBECTL_CONTEXTS_MAX names, exactly as in the kubeconfig (the window shows them through the text gate). */
  contexts: string[];
  /** How many more contexts the kubeconfig has beyond the list. */
  more: number;
  /** Why the last switch failed (one sentence), null after a good one or a re-read. */
  error: string | null;
  /**
   * The file a switch would write (kubectl's rule), the home folder shown as `~`, for the window's
   * confirmation; absent when there is none to write.
   */
  file?: string;
}

/** The most context names sent to the window and the tray. */
export const KUBECTL_CONTEXTS_MAX = 500;
