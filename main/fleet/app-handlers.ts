/** The invoke handlers of the contract, on top of the app core (validated arguments arrive here). */
import { WordedError } from '../../common/errors.ts';
import type { KubeContextInfo, KubectlContexts } from '../../common/fleet.ts';
import type { SyncedSnapshot } from '../../common/fleet-sync.ts';
import type { ForwardTargetSetting, ForwardTestResult, ForwardView } from '../../common/forwarding.ts';
import type { AppInfo } from '../../common/ipc.ts';
import type { SettingsStore } from '../settings/store.ts';
import { SettingsError } from '../settings/validate.ts';
import type { FleetEngine } from './engine.ts';
import type { InvokeHandlers } from './host.ts';
import { fromViewPatch, toSettingsView } from './settings-view.ts';
import type { TimelineLink } from './timeline-link.ts';

/**
 * What the handlers need of the app core, declared here so this file does not import app-core.ts (which
 * builds the handlers from itself): AppCore satisfies it structurally.
 */
export interface HandlerCore {
  readonly engine: FleetEngine;
  readonly settings: SettingsStore;
  info(): AppInfo;
  /** The engine's snapshot as published to windows (snapshot-publisher.ts), stamped. */
  published(): SyncedSnapshot;
  contextList(): KubeContextInfo[];
  applyContexts(): void;
  applyWriteback(): void;
  installCrd(context: string): Promise<{ crd: 'created' | 'existing'; object: 'created' | 'existing' }>;
  setTakeOver(context: string, on: boolean): void;
  kubectlContexts(): KubectlContexts;
  useKubectlContext(name: string): KubectlContexts;
  forwardView(): ForwardView;
  forwardTest(id: string): Promise<ForwardTestResult>;
  forwardSave(target: ForwardTargetSetting): ForwardView;
  forwardRemove(id: string): ForwardView;
  readonly timeline: TimelineLink | null;
}

const NO_TIMELINE = 'This GPU Fleet records no timeline (it runs without a data folder).';

export function createHandlers(core: HandlerCore): InvokeHandlers {
  // With nothing saved, the current context is monitored: the window shows that, not an empty choice.
  // Saved names the kubeconfig no longer has stay in the list (a notice says so), so a save keeps them.
  const view = (s: Parameters<typeof toSettingsView>[0]) => {
    const listed = core.contextList();
    const known = new Set(listed.map((c) => c.name));
    const effective = listed.filter((c) => c.monitored).map((c) => c.name);
    return {
      ...toSettingsView(s),
      monitoredContexts: [...effective, ...s.contexts.filter((n) => !known.has(n))],
    };
  };
  // The sentence stays the host's English (kind 'failed', as any failure); the facts go with it.
  const settingsRefusal = (e: SettingsError) =>
    e.words ? new WordedError(e.words, e.message, 'failed') : new Error(e.message);
  const update = (patch: Parameters<typeof core.settings.update>[0]) => {
    try {
      return core.settings.update(patch);
    } catch (error) {
      if (error instanceof SettingsError) throw settingsRefusal(error);
      throw error;
    }
  };
  return {
    'fleet:snapshot': () => core.published(),
    'fleet:focus': (context) => {
      if (!core.engine.focus(context)) throw new Error(`"${context}" is not a monitored context`);
      update({ focusedContext: context });
      return core.published();
    },
    'contexts:list': () => core.contextList(),
    'contexts:set-monitored': (names) => {
      update({ contexts: [...names] });
      core.applyContexts();
      return core.contextList();
    },
    'alerts:log': () =>
      [...core.settings.get('alertLog')].reverse().map(({ suppressed: _s, ...alert }) => alert),
    // Pauses, always (resuming is alerts:resume): 'until-resumed' is a pause without an end.
    'alerts:snooze': (scope, until) => {
      core.engine.snooze(scope, until);
      update({ alertsPaused: core.engine.snoozeState });
      return core.published();
    },
    'alerts:resume': (scope) => {
      core.engine.resume(scope);
      update({ alertsPaused: core.engine.snoozeState });
      return core.published();
    },
    'writeback:install': (context) => core.installCrd(context),
    'writeback:take-over': (context, on) => {
      try {
        core.setTakeOver(context, on);
      } catch (error) {
        if (error instanceof SettingsError) throw settingsRefusal(error);
        throw error;
      }
      return core.published();
    },
    'settings:get': () => view(core.settings.all()),
    'settings:update': (patch) => {
      const saved = update(fromViewPatch(patch, core.settings.all()));
      core.engine.setRules({ ...saved.alertRules });
      // The source settings (and the group the controller's GpuInventory is in) restart the monitors.
      if (
        patch.monitoredContexts ||
        patch.source ||
        patch.controllerNamespace ||
        patch.crdGroup !== undefined ||
        patch.mergeSameCluster !== undefined
      )
        core.applyContexts();
      else if (
        patch.writeBack ||
        patch.writeBackTakeOver ||
        patch.crdGroup !== undefined ||
        patch.configMapNamespace !== undefined
      )
        core.applyWriteback();
      return view(saved);
    },
    'app:info': () => core.info(),
    'node:detail': (context, node) => core.engine.nodeDetail(context, node),
    'kubectl:contexts': () => core.kubectlContexts(),
    'kubectl:use-context': (name) => core.useKubectlContext(name),
    'forward:list': () => core.forwardView(),
    'forward:test': (id) => core.forwardTest(id),
    'forward:save': (target) => core.forwardSave(target),
    'forward:remove': (id) => core.forwardRemove(id),
    // Secrets never reach the engine this way: in the desktop app Electron main answers this channel.
    'forward:secret': () => {
      throw new Error(
        'Forwarding secrets are set in the desktop app; gpu-fleet serve takes them from --forward-token-file or the environment.',
      );
    },
    'timeline:range': ({ context, range, node }) => {
      if (!core.timeline) throw new Error(NO_TIMELINE);
      return core.timeline.range(context, range, node);
    },
    'timeline:summary': () =>
      core.timeline?.summary(core.engine.snapshot().contexts.map((c) => c.context)) ?? [],
  };
}
