import { describe, expect, it } from 'vitest';
import { translator } from '../../../common/i18n/translator.ts';
import { fleet } from '../../../test/fixtures/snapshots.ts';
import { kubectlSubmenu, TRAY_KUBECTL_MAX } from './kubectl-menu.ts';
import { trayFleet } from './tray-fleet.ts';
import { buildTrayModel } from './tray-model.ts';

const kubectl = (contexts: string[], current: string | null, over = {}) => ({
  contexts,
  current,
  more: 0,
  error: null,
  ...over,
});

describe('the tray\'s "kubectl context" submenu', () => {
  it('lists every context with the current one checked; a pick asks for use-context', () => {
    const model = buildTrayModel(trayFleet(fleet([])), translator('en'), kubectl(['home', 'work'], 'work'));
    const item = model.menu.find((i) => i.label === 'kubectl context');
    expect(item).toEqual({
      label: 'kubectl context',
      type: 'submenu',
      submenu: [
        { label: 'home', type: 'checkbox', checked: false, action: { kind: 'use-context', context: 'home' } },
        { label: 'work', type: 'checkbox', checked: true, action: { kind: 'use-context', context: 'work' } },
      ],
    });
    // Next to "Open GPU Fleet", and only when the caller hands the contexts in.
    const labels = model.menu.map((i) => i.label);
    expect(labels.indexOf('kubectl context')).toBe(labels.indexOf('Open GPU Fleet') + 1);
    expect(buildTrayModel(trayFleet(fleet([])), translator('en')).menu.map((i) => i.label)).not.toContain(
      'kubectl context',
    );
  });

  it("speaks the tray's language", () => {
    const sub = kubectlSubmenu(kubectl([], null, { more: 3 }), translator('ko'));
    expect(sub.label).toBe('kubectl 컨텍스트');
    expect(sub.submenu?.[0]?.label).toBe('외 3개: 창에서 선택하세요');
    expect(kubectlSubmenu(kubectl([], null), translator('ja')).submenu?.[0]?.label).toBe(
      'kubeconfig にコンテキストがありません',
    );
  });

  it('checks nothing when no current context is set, and says so when there are no contexts', () => {
    expect(kubectlSubmenu(kubectl(['a'], null)).submenu?.[0]?.checked).toBe(false);
    expect(kubectlSubmenu(kubectl([], null)).submenu).toEqual([
      { label: 'No contexts in the kubeconfig', enabled: false },
    ]);
  });

  it('caps the list and counts the rest, including those the host left out', () => {
    const names = Array.from({ length: 40 }, (_, i) => `ctx-${i}`);
    const sub = kubectlSubmenu(kubectl(names, 'ctx-39', { more: 7 })).submenu ?? [];
    expect(sub).toHaveLength(TRAY_KUBECTL_MAX + 1);
    expect(sub.at(-1)).toEqual({ label: '+22 more: choose in the window', enabled: false });
  });

  it('shows the last refusal as a line, and a hostile name as one clean label with the exact name kept', () => {
    const sub =
      kubectlSubmenu(
        kubectl(['evil\u001b]0;x\u0007\nline'], null, { error: 'The kubeconfig is read-only.\nfake' }),
      ).submenu ?? [];
    expect(sub[0]).toMatchObject({
      label: 'evil line',
      action: { kind: 'use-context', context: 'evil\u001b]0;x\u0007\nline' },
    });
    expect(sub.slice(1)).toEqual([
      { label: '', type: 'separator' },
      { label: 'The kubeconfig is read-only. fake', enabled: false },
    ]);
  });
});
