/**
 * Pure: the tray's "kubectl context" submenu: one checkbox per kubeconfig context, the current one
 * checked; a pick is a `use-context` action (the user's explicit choice, the only thing that writes the
 * kubeconfig). Names pass the text gate for the label; the action keeps the exact name.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import type { KubectlContexts } from '../../../common/fleet.ts';
import { type Translator, translator } from '../../../common/i18n/translator.ts';
import type { TrayMenuItem } from '../../../common/tray-menu.ts';

/** Context lines in the submenu; the rest are counted ("+N more: choose in the window"). */
export const TRAY_KUBECTL_MAX = 25;
const LABEL_MAX = 80;

/** `tr`: the tray's language (English until the tray model is handed one). */
export function kubectlSubmenu(kubectl: KubectlContexts, tr: Translator = translator('en')): TrayMenuItem {
  const items: TrayMenuItem[] = kubectl.contexts.slice(0, TRAY_KUBECTL_MAX).map((name) => ({
    label: clusterText(name, LABEL_MAX),
    type: 'checkbox',
    checked: name === kubectl.current,
    action: { kind: 'use-context', context: name },
  }));
  const more = kubectl.contexts.length - items.length + kubectl.more;
  if (more > 0) items.push({ label: tr.t('tray.kubectlMore', { count: more }), enabled: false });
  if (items.length === 0) items.push({ label: tr.t('tray.kubectlNone'), enabled: false });
  if (kubectl.error) {
    items.push({ label: '', type: 'separator' });
    items.push({ label: clusterText(kubectl.error, LABEL_MAX), enabled: false });
  }
  return { label: tr.t('tray.kubectl'), type: 'submenu', submenu: items };
}
