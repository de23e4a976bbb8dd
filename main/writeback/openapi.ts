/**
 * Turns a TypeBox schema into a Kubernetes structural OpenAPI v3 schema: `T | null` unions become
 * `nullable: true`, literal unions become enums, TypeBox's own markers are dropped. This is what lets
 * the CRD come from the same definition as the TypeScript types.
 */
import { Kind, type TSchema } from '@sinclair/typebox';

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
}

const COPIED = ['description', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'format'] as const;

function kindOf(schema: TSchema): string {
  return (schema as { [Kind]: string })[Kind];
}

export function toOpenApi(schema: TSchema): OpenApiSchema {
  const out = convert(schema);
  for (const key of COPIED) {
    const value = (schema as Record<string, unknown>)[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

function convert(schema: TSchema): OpenApiSchema {
  switch (kindOf(schema)) {
    case 'Object': {
      const props = (schema as { properties: Record<string, TSchema> }).properties;
      const required = (schema as { required?: string[] }).required;
      const properties: Record<string, OpenApiSchema> = {};
      for (const [name, prop] of Object.entries(props)) properties[name] = toOpenApi(prop);
      return { type: 'object', properties, ...(required?.length ? { required: [...required] } : {}) };
    }
    case 'Array':
      return { type: 'array', items: toOpenApi((schema as { items: TSchema }).items) };
    case 'Record': {
      const patterns = (schema as { patternProperties: Record<string, TSchema> }).patternProperties;
      const value = Object.values(patterns)[0];
      if (!value) throw new Error('record schema without a value type');
      return { type: 'object', additionalProperties: toOpenApi(value) };
    }
    case 'String':
      return { type: 'string' };
    case 'Integer':
      return { type: 'integer' };
    case 'Number':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'Literal':
      return literalEnum([schema]);
    case 'Union':
      return union((schema as { anyOf: TSchema[] }).anyOf);
    default:
      throw new Error(`no OpenAPI form for TypeBox kind ${kindOf(schema)}`);
  }
}

function literalEnum(literals: TSchema[]): OpenApiSchema {
  const values = literals.map((l) => (l as { const: string | number | boolean }).const);
  const type =
    typeof values[0] === 'number' ? 'number' : typeof values[0] === 'boolean' ? 'boolean' : 'string';
  return { type, enum: values };
}

function union(members: TSchema[]): OpenApiSchema {
  const nonNull = members.filter((m) => kindOf(m) !== 'Null');
  const nullable = nonNull.length < members.length;
  let base: OpenApiSchema;
  if (nonNull.length === 1 && nonNull[0]) base = toOpenApi(nonNull[0]);
  else if (nonNull.every((m) => kindOf(m) === 'Literal')) base = literalEnum(nonNull);
  else throw new Error('structural schemas allow only `T | null` and literal unions');
  return nullable ? { ...base, nullable: true } : base;
}
