/** The user-editable settings as the window shows and edits them (no credentials, ever). */

export type Theme = 'system' | 'light' | 'dark';

export interface AlertRulesView {
  /** How long ready GPU nodes must stay dropped before an alert (0 = at once). */
  holdDownMs: number;
  /** How long a cluster must stay unreachable before an alert. */
  unreachableAfterMs: number;
  /** Alert when a Ready node's allocatable GPUs fall below its capacity. */
  withdrawnGpus: boolean;
}

export interface SettingsView {
  monitoredContexts: string[];
  alertRules: AlertRulesView;
  /** Context name → write the GpuInventory / ConfigMap back into that cluster. */
  writeBack: Record<string, boolean>;
  crdGroup: string;
  configMapNamespace: string;
  launchAtLogin: boolean;
  theme: Theme;
}

export type SettingsPatch = Partial<SettingsView>;
