/**
 * The real cause first, in every text one alert makes: a ready drop of a node another tool found
 * faulty (NVSentinel here) says that tool's words before the Ready reason in the desktop notification,
 * the window's words (any language), the English alert log, and the forwarded message and its nodes.
 * From a raw Node through the inventory entry, the policy's words and the forwarder's message.
 */
import { describe, expect, it } from 'vitest';
import { shownAlertText } from '../../common/i18n/alert-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import { desktopNotice } from '../../common/notification.ts';
import { downNode, dropText, makeAlert } from '../alerts/text.ts';
import { viewOf } from '../alerts/types.ts';
import { deriveEntry } from '../inventory/derive.ts';
import { trimNode } from '../inventory/node-facts.ts';
import { forwardMessage } from './message.ts';

const CAUSE = 'NVSentinel: GpuXidError (XidCritical): XID 79 on GPU 0';

function alertFor(conditions: unknown[]) {
  const facts = trimNode({
    metadata: { name: 'h100-1', labels: { 'nvidia.com/gpu.product': 'H100', 'nvidia.com/gpu.count': '8' } },
    status: { conditions, capacity: { 'nvidia.com/gpu': '8' }, allocatable: { 'nvidia.com/gpu': '8' } },
  });
  if (!facts) throw new Error('no facts');
  const entry = deriveEntry(facts, null);
  const view = viewOf({
    ready_gpu_nodes: 0,
    total_gpu_nodes: 1,
    nodes: [entry],
  } as unknown as Parameters<typeof viewOf>[0]);
  const node = view.nodes['h100-1'];
  const text = dropText('lab', [downNode('h100-1', node?.why ?? null, node?.cause ?? null)], 1, 0);
  return {
    entry,
    alert: makeAlert(
      { at: 0, context: 'lab', kind: 'ready-drop', nodes: ['h100-1'], before: 1, after: 0, ...text },
      false,
    ),
  };
}

const NOT_READY = {
  type: 'Ready',
  status: 'False',
  reason: 'KubeletNotReady',
  message: 'PLEG is not healthy: pleg was last seen active 3m0s ago',
};
const XID = { type: 'GpuXidError', status: 'True', reason: 'XidCritical', message: 'XID 79 on GPU 0' };

describe('the real cause first', () => {
  it('every text of one alert says the cause before the Ready reason', () => {
    const { entry, alert } = alertFor([NOT_READY, XID]);
    expect(entry.gpu_cause).toBe(CAUSE);
    const en = `h100-1: ${CAUSE} — NotReady (PLEG is not healthy)`;
    expect(alert.body).toContain(en);
    expect(desktopNotice(alert, translator('en')).body).toContain(en);
    const ko = shownAlertText(alert, translator('ko')).body;
    expect(ko.indexOf(CAUSE)).toBeGreaterThanOrEqual(0);
    expect(ko.indexOf(CAUSE)).toBeLessThan(ko.indexOf('PLEG'));
    const forwarded = forwardMessage(alert, 'ja');
    expect(forwarded.body).toBe(shownAlertText(alert, translator('ja')).body);
    expect(forwarded.body.indexOf(CAUSE)).toBeLessThan(forwarded.body.indexOf('PLEG'));
    expect(forwarded.nodes).toEqual([
      { name: 'h100-1', reason: `${CAUSE} — NotReady (PLEG is not healthy)` },
    ]);
  });

  it('without a signal the texts are as before: the Ready reason alone', () => {
    const { entry, alert } = alertFor([NOT_READY, { ...XID, status: 'False' }]);
    expect(entry.gpu_cause).toBeUndefined();
    expect(alert.body).toContain('h100-1: NotReady (PLEG is not healthy)');
    expect(forwardMessage(alert, 'en').nodes[0]?.reason).toBe('NotReady (PLEG is not healthy)');
  });
});
