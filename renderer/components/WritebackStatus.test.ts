import { fireEvent, render, screen } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import type { ContextSnapshot } from '../../common/fleet.ts';
import { contextSnapshot, inventory } from '../../test/fixtures/snapshots.ts';
import WritebackStatus from './WritebackStatus.svelte';

const withWriteback = (phase: ContextSnapshot['writeback']['phase'], message: string | null = null) =>
  contextSnapshot('home', 'live', inventory(2, 2), {
    writeback: { phase, message, lastWriteAt: null, writes: 3, skipped: 7 },
  });

it('shows nothing while write-back is off', () => {
  render(WritebackStatus, { ctx: withWriteback('off'), oninstall: async () => null });
  expect(screen.queryByTestId('writeback-status')).toBeNull();
});

it('shows counts and the server message in words', () => {
  render(WritebackStatus, {
    ctx: withWriteback('forbidden', 'status: User "ro" may not patch gpuinventories/status'),
    oninstall: async () => null,
  });
  const box = screen.getByTestId('writeback-status');
  expect(box.textContent).toContain('not allowed');
  expect(box.textContent).toContain('3 written · 7 unchanged');
  expect(box.textContent).toContain('may not patch gpuinventories/status');
  expect(screen.queryByTestId('install-crd')).toBeNull();
});

it('offers to install a missing CRD and says what happened', async () => {
  const asked: string[] = [];
  render(WritebackStatus, {
    ctx: withWriteback('crd-missing', 'The GpuInventory CRD is not installed'),
    oninstall: async (c: string) => {
      asked.push(c);
      return 'CRD installed; writing the inventory.';
    },
  });
  await fireEvent.click(screen.getByTestId('install-crd'));
  expect(asked).toEqual(['home']);
  expect((await screen.findByRole('status')).textContent).toBe('CRD installed; writing the inventory.');
});

const conflict = (owners?: string[]) =>
  contextSnapshot('home', 'live', inventory(2, 2), {
    writeback: {
      phase: 'conflict',
      message: 'ConfigMap kube-system/gpu-node-status: owned by field manager "helm" (409 Conflict).',
      lastWriteAt: null,
      writes: 0,
      skipped: 0,
      ...(owners ? { owners } : {}),
    },
  });

it('in a conflict names the owner and takes over only after a confirm in words', async () => {
  const asked: string[] = [];
  render(WritebackStatus, {
    ctx: conflict(['helm']),
    oninstall: async () => null,
    ontakeover: async (c: string) => {
      asked.push(c);
      return 'Take-over is on for this context; writing the inventory.';
    },
  });
  expect(screen.getByTestId('conflict-owner').textContent).toContain('Owned by “helm”');
  expect(screen.queryByTestId('take-over-confirm')).toBeNull();

  // The first click only asks; Cancel asks nothing of the host.
  await fireEvent.click(screen.getByTestId('take-over'));
  expect(screen.getByTestId('take-over-confirm').textContent).toContain(
    'GPU Fleet will overwrite the fields that “helm” manages',
  );
  await fireEvent.click(screen.getByTestId('take-over-no'));
  expect(screen.queryByTestId('take-over-confirm')).toBeNull();
  expect(asked).toEqual([]);

  await fireEvent.click(screen.getByTestId('take-over'));
  await fireEvent.click(screen.getByTestId('take-over-yes'));
  expect(asked).toEqual(['home']);
  expect((await screen.findByRole('status')).textContent).toBe(
    'Take-over is on for this context; writing the inventory.',
  );
});

it('says "another tool" when the server named no owner', async () => {
  render(WritebackStatus, { ctx: conflict(), oninstall: async () => null, ontakeover: async () => null });
  await fireEvent.click(screen.getByTestId('take-over'));
  expect(screen.getByTestId('take-over-confirm').textContent).toContain(
    'GPU Fleet will overwrite the fields that another tool manages',
  );
});

it.each(['idle', 'forbidden', 'crd-missing', 'invalid', 'error'] as const)(
  'offers no take-over in the %s phase',
  (phase) => {
    render(WritebackStatus, {
      ctx: withWriteback(phase),
      oninstall: async () => null,
      ontakeover: async () => null,
    });
    expect(screen.queryByTestId('take-over')).toBeNull();
    expect(screen.queryByTestId('conflict-owner')).toBeNull();
  },
);
