/**
 * One backoff formula (issue 27: it was written four ways): a capped power with a computed exponent,
 * `Math.min(max, first * 2 ** n)` or with `Math.pow`, is a backoff step, and only common/backoff.ts may
 * write one. Every other retry calls its backoffStep (or main/kube/backoff.ts's Backoff, built on it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { scriptOf, sourceFiles } from './import-graph.ts';
import { isTestFile } from './layers.ts';

const HOME = 'common/backoff.ts';
const PRODUCT = /^(main|common|renderer|preload)\//;

const isMathCall = (node: ts.Node, name: string): node is ts.CallExpression =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  ts.isIdentifier(node.expression.expression) &&
  node.expression.expression.text === 'Math' &&
  node.expression.name.text === name;

/** The exponent of a power (`a ** b`, `Math.pow(a, b)`), or null when the node is none. */
function exponentOf(node: ts.Node): ts.Node | null {
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AsteriskAsteriskToken)
    return node.right;
  if (isMathCall(node, 'pow')) return node.arguments[1] ?? null;
  return null;
}

/** `line:column` of every capped power with a computed exponent in one file's source. */
function cappedPowers(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, scriptOf(file, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node, capped: boolean): void => {
    const exponent = exponentOf(node);
    if (capped && exponent !== null && !ts.isNumericLiteral(exponent)) {
      const at = src.getLineAndCharacterOfPosition(node.getStart(src));
      found.push(`${file}:${at.line + 1}:${at.character + 1}`);
    }
    const inside = capped || isMathCall(node, 'min');
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(src, false);
  return found;
}

describe('one backoff formula', () => {
  it('is written only in common/backoff.ts', () => {
    const root = process.cwd();
    const files = sourceFiles(root).filter((f) => PRODUCT.test(f) && !isTestFile(f));
    const found = files.flatMap((f) => cappedPowers(f, readFileSync(path.join(root, f), 'utf8')));
    expect(found.filter((at) => at.startsWith(`${HOME}:`))).toHaveLength(1);
    expect(
      found.filter((at) => !at.startsWith(`${HOME}:`)),
      'call backoffStep (common/backoff.ts) instead',
    ).toEqual([]);
  });

  it.each([
    ['a doubling capped by Math.min', 'const d = Math.min(MAX, FIRST * 2 ** attempt);'],
    ['Math.pow capped', 'const d = Math.min(MAX, FIRST * Math.pow(2, n));'],
    ['a factor to a clamped exponent', 'return Math.min(s.max, s.first * s.factor ** Math.min(k, 64));'],
    ['in a Svelte script', '<script lang="ts">\nlet d = Math.min(8000, 500 * 2 ** tries);\n</script>'],
  ])('finds %s', (_name, text) => {
    const file = text.startsWith('<script') ? 'renderer/X.svelte' : 'main/x.ts';
    expect(cappedPowers(file, text)).toHaveLength(1);
  });

  it.each([
    ['constant powers', 'const Ki = 2 ** 10; const MAX = Math.min(2 ** 31 - 1, x);'],
    ['an uncapped power (an axis scale)', 'const e = 10 ** Math.floor(Math.log10(v));'],
  ])('leaves %s alone', (_name, text) => {
    expect(cappedPowers('main/x.ts', text)).toEqual([]);
  });
});
