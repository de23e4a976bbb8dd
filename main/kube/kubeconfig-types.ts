/**
 * The kubeconfig as the engine holds it after loading and merging: clusters, users and contexts with the
 * file each came from, plus the warnings and per-file errors the UI shows. Credentials stay inside these
 * objects; only KubeContextInfo (common/fleet.ts) and fingerprints ever leave main/kube.
 */
import type { Cluster, User } from '@kubernetes/client-node';

/** A validated `users[].user.exec` block (client.authentication.k8s.io ExecConfig). */
export interface ExecSpec {
  /** As written, or made absolute against the kubeconfig's folder when it is a relative path. */
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: string;
  interactiveMode: 'Never' | 'IfAvailable' | 'Always';
  provideClusterInfo: boolean;
  installHint: string | null;
}

export interface SourcedCluster {
  /** In client-node's shape, with file paths made absolute. */
  cluster: Cluster;
  file: string;
}

export interface SourcedUser {
  /** In client-node's shape, without `exec` (exec plugins are run by exec-credential.ts). */
  user: User;
  exec: ExecSpec | null;
  file: string;
}

export interface ResolvedContext {
  name: string;
  clusterName: string;
  userName: string | null;
  namespace: string | null;
  /** Null when no loaded file defines the cluster / user the context names. */
  cluster: SourcedCluster | null;
  user: SourcedUser | null;
  file: string;
}

export type KubeconfigWarningKind =
  | 'duplicate'
  | 'insecure-skip-tls-verify'
  | 'permissions'
  | 'invalid-entry'
  | 'missing-file';

export interface KubeconfigWarning {
  kind: KubeconfigWarningKind;
  file: string;
  message: string;
}

/** A file that could not be used at all (unreadable, not YAML, wrong shape); the other files still are. */
export interface KubeconfigFileError {
  file: string;
  message: string;
  /** Set when the file is over the size cap (use-context answers `too-large` then). */
  tooLarge?: true;
}

/** Where the files came from, as kubectl decides: --kubeconfig, else KUBECONFIG, else ~/.kube/config. */
export type KubeconfigSource = 'flag' | 'env' | 'default';

export type KubeconfigLoad =
  | {
      kind: 'none';
      source: KubeconfigSource;
      /** The paths looked at. */
      searched: string[];
      /** One sentence for the user ("No kubeconfig found at ~/.kube/config; try the demo cluster."). */
      message: string;
    }
  | {
      kind: 'loaded';
      source: KubeconfigSource;
      /** Files that were read (existing ones, in merge order). */
      files: string[];
      contexts: ResolvedContext[];
      currentContext: string | null;
      warnings: KubeconfigWarning[];
      errors: KubeconfigFileError[];
    };

export type LoadedKubeconfig = Extract<KubeconfigLoad, { kind: 'loaded' }>;
