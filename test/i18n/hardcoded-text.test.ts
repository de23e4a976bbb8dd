/**
 * No component of the window holds a user-facing word of its own: every text node and visible
 * attribute of renderer/**\/*.svelte comes from the message catalogs (docs/i18n.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hardcodedText } from './hardcoded-text.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function svelteFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return svelteFiles(p);
    return e.name.endsWith('.svelte') ? [p] : [];
  });
}

const files = svelteFiles(path.join(ROOT, 'renderer')).map((f) => path.relative(ROOT, f));

describe('components take their words from the catalogs', () => {
  it('finds the components', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)('%s has no hard-coded user-facing text', (file) => {
    const found = hardcodedText(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    expect(found.map((f) => `${file}:${f.line} ${f.where} "${f.text}"`)).toEqual([]);
  });

  it('catches a text node, a visible attribute and a rendered literal, and lets keys and markup be', () => {
    const found = hardcodedText(`<script lang="ts">let a = $state(false); const t = (k: string) => k;</script>
<p class="muted" data-testid="x">Loading…</p>
<button aria-label="Close it" title={a ? 'Open' : t('tabs.nodes')}>×</button>
<input placeholder={t('table.search')} />
<span>{a ? t('common.none') : 'nothing yet'}</span>
<span>{\`\${1} nodes\`}</span>
<kbd>Esc</kbd>
{#if a}<Thing label="Connecting" onclick={() => alert('not text')} />{/if}
<style>p { color: red; }</style>`);
    expect(found.map((f) => [f.where, f.text])).toEqual([
      ['text', 'Loading…'],
      ['aria-label=', 'Close it'],
      ['title=', 'Open'],
      ['text', 'nothing yet'],
      ['text', 'nodes'],
      ['label=', 'Connecting'],
    ]);
  });
});
