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
