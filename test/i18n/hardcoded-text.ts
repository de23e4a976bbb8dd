/**
 * Finds words written into a Svelte template instead of coming from the message catalogs: text nodes,
 * user-visible attributes (title, aria-label, placeholder, alt, and the props that carry text to a
 * component: label, hint, suffix, text), and string literals an expression renders (`{a ? 'x' : 'y'}`,
 * `{x ?? 'none'}`). A literal passed to a call (the key of `t('tabs.nodes')`) is not rendered text.
 */
import { parse } from 'svelte/compiler';

/** Attributes (and component props) whose value a user reads or hears. */
const VISIBLE = new Set([
  'title',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'placeholder',
  'alt',
  'label',
  'hint',
  'suffix',
  'text',
]);

/** The same in every language: a keyboard key's name, and the info icon (a letter to Unicode, aria-hidden). */
const ALLOWED = new Set(['Esc', 'ℹ']);

const WORD = /\p{L}/u;

export interface Finding {
  line: number;
  text: string;
  where: string;
}

interface Node {
  type?: string;
  start?: number;
  [key: string]: unknown;
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

function lineAt(source: string, offset: number | undefined): number {
  return offset === undefined ? 0 : source.slice(0, offset).split('\n').length;
}

/** String literals an expression evaluates to (not those it passes to calls or compares with). */
function renderedLiterals(expr: unknown, out: Node[]): void {
  if (!isNode(expr)) return;
  switch (expr.type) {
    case 'Literal':
      if (typeof expr.value === 'string') out.push(expr);
      return;
    case 'TemplateLiteral':
      for (const q of (expr.quasis as Node[]) ?? []) out.push(q);
      for (const e of (expr.expressions as unknown[]) ?? []) renderedLiterals(e, out);
      return;
    case 'ConditionalExpression':
      renderedLiterals(expr.consequent, out);
      renderedLiterals(expr.alternate, out);
      return;
    case 'LogicalExpression':
      renderedLiterals(expr.left, out);
      renderedLiterals(expr.right, out);
      return;
    case 'BinaryExpression':
      if (expr.operator === '+') {
        renderedLiterals(expr.left, out);
        renderedLiterals(expr.right, out);
      }
      return;
    default:
      return;
  }
}

function literalText(n: Node): string {
  if (n.type === 'TemplateElement') return String((n.value as { cooked?: string })?.cooked ?? '');
  return String(n.value);
}

export function hardcodedText(source: string): Finding[] {
  const ast = parse(source, { modern: true });
  const found: Finding[] = [];
  const flag = (text: string, at: number | undefined, where: string) => {
    const trimmed = text.trim();
    if (trimmed === '' || !WORD.test(trimmed) || ALLOWED.has(trimmed)) return;
    found.push({ line: lineAt(source, at), text: trimmed, where });
  };
  const expression = (expr: unknown, where: string) => {
    const lits: Node[] = [];
    renderedLiterals(expr, lits);
    for (const l of lits) flag(literalText(l), l.start, where);
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (!isNode(node)) return;
    const type = node.type ?? '';
    if (type === 'Comment' || type.endsWith('Directive') || type === 'SpreadAttribute') return;
    if (type === 'Attribute') {
      const name = String(node.name);
      if (!VISIBLE.has(name)) return;
      const values = Array.isArray(node.value) ? node.value : [node.value];
      for (const v of values) {
        if (!isNode(v)) continue;
        if (v.type === 'Text') flag(String(v.data), v.start, `${name}=`);
        else if (v.type === 'ExpressionTag') expression(v.expression, `${name}=`);
      }
      return;
    }
    if (type === 'Text') {
      flag(String(node.data), node.start, 'text');
      return;
    }
    if (type === 'ExpressionTag') {
      expression(node.expression, 'text');
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      // Scripts and styles are not the template; expressions outside tags render nothing by themselves.
      if (key === 'instance' || key === 'module' || key === 'css' || key === 'options') continue;
      if (isNode(value) || Array.isArray(value)) visit(value);
    }
  };
  visit(ast.fragment);
  return found;
}
