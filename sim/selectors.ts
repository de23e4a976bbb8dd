// Label and field selectors with kube-apiserver's parsing rules and error messages.
import { badRequest } from './errors.ts';
import { eventField } from './events.ts';
import { podField } from './pods.ts';
import type { KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

type Op = 'exists' | '!exists' | '=' | '!=' | 'in' | 'notin' | 'gt' | 'lt';
interface Req {
  key: string;
  op: Op;
  values: string[];
}
export type Matcher = (labels: Record<string, string>) => boolean;

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function tokenize(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '=' || c === '!') {
      const two = s.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        out.push(two);
        i += 2;
      } else {
        out.push(c);
        i++;
      }
    } else if ('(),<>'.includes(c)) {
      out.push(c);
      i++;
    } else {
      let j = i;
      while (j < s.length && !' \t=!(),<>'.includes(s[j] as string)) j++;
      out.push(`#${s.slice(i, j)}`);
      i = j;
    }
  }
  return out;
}

function checkKey(key: string): void {
  const slash = key.lastIndexOf('/');
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (!NAME_RE.test(name) || name.length > 63) {
    throw badRequest(`unable to parse requirement: <nil>: Invalid value: "${key}": ${NAME_MSG}`);
  }
}

const shown = (t: string | undefined): string => (t === undefined ? '' : t.startsWith('#') ? t.slice(1) : t);

export function parseLabelSelector(s: string): Matcher {
  const toks = tokenize(s);
  const reqs: Req[] = [];
  let i = 0;
  const ident = (t: string | undefined): t is string => t?.startsWith('#') === true;
  while (i < toks.length) {
    let t = toks[i];
    if (t === '!') {
      const k = toks[i + 1];
      if (!ident(k))
        throw badRequest(`unable to parse requirement: found '${shown(k)}', expected: identifier`);
      checkKey(k.slice(1));
      reqs.push({ key: k.slice(1), op: '!exists', values: [] });
      i += 2;
    } else {
      if (!ident(t))
        throw badRequest(`unable to parse requirement: found '${shown(t)}', expected: identifier`);
      const key = t.slice(1);
      checkKey(key);
      const op = toks[i + 1];
      i += 2;
      if (op === undefined || op === ',') {
        reqs.push({ key, op: 'exists', values: [] });
        i -= 1;
      } else if (op === '=' || op === '==' || op === '!=') {
        const v = toks[i];
        const value = ident(v) ? v.slice(1) : '';
        if (ident(v)) i++;
        reqs.push({ key, op: op === '!=' ? '!=' : '=', values: [value] });
      } else if (op === '>' || op === '<') {
        const v = toks[i];
        if (!ident(v))
          throw badRequest(`unable to parse requirement: found '${shown(v)}', expected: integer`);
        i++;
        reqs.push({ key, op: op === '>' ? 'gt' : 'lt', values: [v.slice(1)] });
      } else if (op === '#in' || op === '#notin') {
        if (toks[i] !== '(')
          throw badRequest(`unable to parse requirement: found '${shown(toks[i])}' expected: '('`);
        i++;
        const values: string[] = [];
        while (i < toks.length && toks[i] !== ')') {
          t = toks[i];
          if (ident(t)) values.push(t.slice(1));
          i++;
        }
        if (toks[i] !== ')') throw badRequest("unable to parse requirement: found '', expected: ')'");
        i++;
        reqs.push({ key, op: op === '#in' ? 'in' : 'notin', values });
      } else {
        throw badRequest(
          `unable to parse requirement: found '${shown(op)}', expected: '=', '!=', '==', 'in', notin'`,
        );
      }
    }
    t = toks[i];
    if (t === undefined) break;
    if (t !== ',') throw badRequest(`found '${shown(t)}', expected: ',' or 'end of string'`);
    i++;
  }
  return (labels) => reqs.every((r) => matchReq(r, labels));
}

function matchReq(r: Req, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case '=':
    case 'in':
      return has && r.values.includes(v as string);
    case '!=':
    case 'notin':
      return !has || !r.values.includes(v as string);
    case 'gt':
      return has && Number(v) > Number(r.values[0]);
    case 'lt':
      return has && Number(v) < Number(r.values[0]);
  }
}

export type ObjMatcher = (o: KObj) => boolean;

function fieldValue(def: ResourceDef, o: KObj, field: string): string | undefined {
  const md = o.metadata;
  if (field === 'metadata.name') return String(md.name ?? '');
  if (field === 'metadata.namespace' && def.namespaced) return String(md.namespace ?? '');
  if (def.resource === 'nodes' && field === 'spec.unschedulable') {
    return String(isObj(o.spec) && o.spec.unschedulable === true);
  }
  if (def.resource === 'namespaces' && field === 'status.phase') {
    return String(isObj(o.status) ? (o.status.phase ?? '') : '');
  }
  if (def.resource === 'events' && def.builtin) return eventField(def, o, field);
  if (def.resource === 'pods' && def.builtin) return podField(o, field);
  return undefined;
}

export function parseFieldSelector(def: ResourceDef, s: string): ObjMatcher {
  const reqs: { field: string; neg: boolean; value: string }[] = [];
  for (const part of s.split(',')) {
    if (part.trim() === '') continue;
    const m = /^([^=!]+)(==|=|!=)(.*)$/.exec(part);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${part}'`);
    const field = (m[1] as string).trim();
    reqs.push({ field, neg: m[2] === '!=', value: (m[3] as string).trim() });
  }
  const probe: KObj = { metadata: {} };
  for (const r of reqs) {
    if (fieldValue(def, probe, r.field) === undefined)
      throw badRequest(`field label not supported: ${r.field}`);
  }
  return (o) => reqs.every((r) => (fieldValue(def, o, r.field) === r.value) !== r.neg);
}

export function labelsOf(o: KObj): Record<string, string> {
  return isObj(o.metadata.labels) ? (o.metadata.labels as Record<string, string>) : {};
}
