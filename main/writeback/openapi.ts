/**
 * Turns a TypeBox schema into a Kubernetes structural OpenAPI v3 schema: `T | null` unions become
 * `nullable: true`, literal unions become enums, TypeBox's own markers are dropped. This is what lets
 * the CRD come from the same definition as the TypeScript types.
 */
import { Kind, KindGuard, type TLiteral, type TSchema } from '@sinclair/typebox';

export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  enum?: (string | number | boolean)[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: OpenApiSchema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
}

const COPIED = [
  'description',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'x-kubernetes-list-type',
] as const;

export function toOpenApi(schema: TSchema): OpenApiSchema {
  const out = convert(schema);
  for (const key of COPIED) {
    const value = (schema as Record<string, unknown>)[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

function convert(schema: TSchema): OpenApiSchema {
  if (KindGuard.IsObject(schema)) {
    const properties: Record<string, OpenApiSchema> = {};
    for (const [name, prop] of Object.entries(schema.properties)) properties[name] = toOpenApi(prop);
    // A nullable field is never `required`: server-side apply drops explicit nulls, so a required
    // nullable field would make every apply of a null value fail validation (422).
    const required = (schema.required ?? []).filter((name) => !properties[name]?.nullable);
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
  if (KindGuard.IsArray(schema)) return { type: 'array', items: toOpenApi(schema.items) };
  if (KindGuard.IsRecord(schema)) {
    const value = Object.values(schema.patternProperties)[0];
    if (!value) throw new Error('record schema without a value type');
    return { type: 'object', additionalProperties: toOpenApi(value) };
  }
  if (KindGuard.IsString(schema)) return { type: 'string' };
  if (KindGuard.IsInteger(schema)) return { type: 'integer' };
  if (KindGuard.IsNumber(schema)) return { type: 'number' };
  if (KindGuard.IsBoolean(schema)) return { type: 'boolean' };
  if (KindGuard.IsLiteral(schema)) return literalEnum([schema]);
  if (KindGuard.IsUnion(schema)) return union(schema.anyOf);
  throw new Error(`no OpenAPI form for TypeBox kind ${String(schema[Kind])}`);
}

function literalEnum(literals: TLiteral[]): OpenApiSchema {
  const values = literals.map((l) => l.const);
  const type =
    typeof values[0] === 'number' ? 'number' : typeof values[0] === 'boolean' ? 'boolean' : 'string';
  return { type, enum: values };
}

function union(members: TSchema[]): OpenApiSchema {
  const nonNull = members.filter((m) => !KindGuard.IsNull(m));
  const nullable = nonNull.length < members.length;
  let base: OpenApiSchema;
  if (nonNull.length === 1 && nonNull[0]) base = toOpenApi(nonNull[0]);
  else if (nonNull.every((m) => KindGuard.IsLiteral(m))) base = literalEnum(nonNull);
  else throw new Error('structural schemas allow only `T | null` and literal unions');
  return nullable ? { ...base, nullable: true } : base;
}
