// Just enough of Kubernetes' protobuf encoding to read what kubectl sends as protobuf: the "k8s\0"
// envelope (runtime.Unknown with its TypeMeta) and a TokenRequest's spec (`kubectl create token`).
import type { JsonObject } from './types.ts';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

interface Field {
  no: number;
  varint?: bigint;
  bytes?: Buffer;
}

/** The fields of one protobuf message (wire types 0, 1, 2, 5), or undefined when it is malformed. */
function fields(buf: Buffer): Field[] | undefined {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint | undefined => {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = buf[i++];
      if (b === undefined) return undefined;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
    }
    return undefined;
  };
  while (i < buf.length) {
    const tag = varint();
    if (tag === undefined) return undefined;
    const no = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) {
      const v = varint();
      if (v === undefined) return undefined;
      out.push({ no, varint: v });
    } else if (wire === 2) {
      const len = varint();
      if (len === undefined || i + Number(len) > buf.length) return undefined;
      out.push({ no, bytes: buf.subarray(i, i + Number(len)) });
      i += Number(len);
    } else if (wire === 1 || wire === 5) i += wire === 1 ? 8 : 4;
    else return undefined;
  }
  return out;
}

/** The TypeMeta and raw object of a "k8s\0"-framed body, or undefined when it is not one. */
export function unwrap(body: Buffer): { apiVersion: string; kind: string; raw: Buffer } | undefined {
  if (!body.subarray(0, 4).equals(MAGIC)) return undefined;
  const unknown = fields(body.subarray(4));
  if (!unknown) return undefined;
  const typeMeta = fields(unknown.find((f) => f.no === 1)?.bytes ?? Buffer.alloc(0)) ?? [];
  const text = (fs: Field[], no: number) => fs.find((f) => f.no === no)?.bytes?.toString('utf8') ?? '';
  return {
    apiVersion: text(typeMeta, 1),
    kind: text(typeMeta, 2),
    raw: unknown.find((f) => f.no === 2)?.bytes ?? Buffer.alloc(0),
  };
}

/** A TokenRequest's spec (audiences = 1, expirationSeconds = 4) from its protobuf form. */
export function tokenRequestSpec(raw: Buffer): JsonObject | undefined {
  const top = fields(raw);
  if (!top) return undefined;
  const spec = fields(top.find((f) => f.no === 2)?.bytes ?? Buffer.alloc(0));
  if (!spec) return undefined;
  const out: JsonObject = {};
  const audiences = spec
    .filter((f) => f.no === 1 && f.bytes)
    .map((f) => (f.bytes as Buffer).toString('utf8'));
  if (audiences.length > 0) out.audiences = audiences;
  const exp = spec.find((f) => f.no === 4)?.varint;
  if (exp !== undefined) out.expirationSeconds = Number(BigInt.asIntN(64, exp));
  return out;
}

const text = (fs: Field[], no: number): string | undefined =>
  fs.find((f) => f.no === no)?.bytes?.toString('utf8');
const sub = (fs: Field[], no: number): Field[] | undefined => {
  const b = fs.find((f) => f.no === no)?.bytes;
  return b ? fields(b) : undefined;
};

function strings(fs: Field[], names: Record<number, string>): JsonObject {
  const out: JsonObject = {};
  for (const [no, name] of Object.entries(names)) {
    const v = text(fs, Number(no));
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/**
 * The spec of a self review from its protobuf form (`kubectl auth can-i` sends protobuf):
 * SelfSubjectAccessReviewSpec (resourceAttributes = 1, nonResourceAttributes = 2) and
 * SelfSubjectRulesReviewSpec (namespace = 1). Undefined when malformed.
 */
export function reviewSpec(resource: string, raw: Buffer): JsonObject | undefined {
  const top = fields(raw);
  const spec = top && (sub(top, 2) ?? []);
  if (!spec) return undefined;
  if (resource === 'selfsubjectrulesreviews') return strings(spec, { 1: 'namespace' });
  if (resource !== 'selfsubjectaccessreviews') return {};
  const out: JsonObject = {};
  const ra = sub(spec, 1);
  if (ra)
    out.resourceAttributes = strings(ra, {
      1: 'namespace',
      2: 'verb',
      3: 'group',
      4: 'version',
      5: 'resource',
      6: 'subresource',
      7: 'name',
    });
  const nra = sub(spec, 2);
  if (nra) out.nonResourceAttributes = strings(nra, { 1: 'path', 2: 'verb' });
  return out;
}
