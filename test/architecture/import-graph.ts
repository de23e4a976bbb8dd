/**
 * The import graph of the source tree (main/, common/, renderer/, preload/, sim/, and bench/ for the
 * electron rule), read with TypeScript's own parser: every static `import … from`, `export … from`,
 * `import type`, and `import('…')` with a literal specifier, in .ts and in the <script> blocks of .svelte
 * files (and plain .mjs/.cjs/.js); and the loads the layer rule cannot follow, as edges of their own form: `require(…)`,
 * `createRequire`, and `import(…)` of anything but a literal. Paths are repository-relative with '/'.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOTS = ['main', 'common', 'renderer', 'preload', 'sim', 'bench'] as const;

export interface ImportEdge {
  from: string;
  /** The repository-relative file for a relative specifier; the bare specifier (`electron`, `node:fs`) otherwise. */
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
  /** A load the graph cannot follow: `require`, `createRequire`, or `import()` of a computed specifier. */
  opaque?: 'require' | 'createRequire' | 'computed-import';
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(root, rel, out);
    } else if (/\.(ts|svelte|mjs|cjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
}

export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  for (const r of ROOTS) walk(root, r, out);
  return out.sort();
}

export function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

function resolve(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
}

export function importsOf(from: string, text: string): ImportEdge[] {
  const src = ts.createSourceFile(
    from,
    scriptOf(from, text),
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean, dynamic: boolean) =>
    edges.push({ from, to: resolve(from, spec), typeOnly, dynamic });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      let typeOnly = clause?.isTypeOnly ?? false;
      // `import { type A, type B } from` erases too.
      const named = clause?.namedBindings;
      if (
        !typeOnly &&
        clause &&
        !clause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0
      )
        typeOnly = named.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier.text, typeOnly, false);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly, false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false, true);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      edges.push({ from, to: '<computed>', typeOnly: false, dynamic: true, opaque: 'computed-import' });
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'require'
    ) {
      const arg = node.arguments[0];
      const to = arg && ts.isStringLiteralLike(arg) ? resolve(from, arg.text) : '<computed>';
      edges.push({ from, to, typeOnly: false, dynamic: false, opaque: 'require' });
    } else if (ts.isIdentifier(node) && node.text === 'createRequire') {
      edges.push({ from, to: 'node:module', typeOnly: false, dynamic: false, opaque: 'createRequire' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const lit = node.argument.literal;
      if (ts.isStringLiteral(lit)) add(lit.text, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return edges;
}

export function importGraph(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((f) => importsOf(f, readFileSync(path.join(root, f), 'utf8')));
}

/** Every cycle among files (strongly connected components of more than one file, or a self-import). */
export function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.to.includes('/')) continue;
    const list = next.get(e.from) ?? [];
    list.push(e.to);
    next.set(e.from, list);
  }
  // Tarjan's algorithm.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (next.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of next.keys()) if (!idx.has(v)) strong(v);
  return out;
}
