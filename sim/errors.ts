// Kubernetes Status error bodies, as a thrown ApiError the HTTP layer turns into a response.
import type { Json, JsonObject, ResourceDef } from './types.ts';

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export class ApiError extends Error {
  constructor(
    public readonly code: number,
    public readonly body: JsonObject,
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${code}`);
  }
}

export function statusBody(
  code: number,
  message: string,
  reason?: string,
  details?: JsonObject,
  metadata: JsonObject = {},
): JsonObject {
  const body: JsonObject = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message };
  const r = reason === undefined ? REASONS[code] : reason;
  if (r) body.reason = r;
  if (details) body.details = details;
  body.code = code;
  return body;
}

export function apiError(code: number, message: string, reason?: string, details?: JsonObject): ApiError {
  return new ApiError(code, statusBody(code, message, reason, details));
}

export function qualified(def: ResourceDef): string {
  return def.group ? `${def.resource}.${def.group}` : def.resource;
}

function nameDetails(def: ResourceDef, name: string): JsonObject {
  const d: JsonObject = { name };
  if (def.group) d.group = def.group;
  d.kind = def.resource;
  return d;
}

export function notFound(def: ResourceDef, name: string): ApiError {
  return apiError(404, `${qualified(def)} "${name}" not found`, 'NotFound', nameDetails(def, name));
}

export function alreadyExists(def: ResourceDef, name: string): ApiError {
  return apiError(409, `${qualified(def)} "${name}" already exists`, 'AlreadyExists', nameDetails(def, name));
}

export function conflict(def: ResourceDef, name: string): ApiError {
  return apiError(
    409,
    `Operation cannot be fulfilled on ${qualified(def)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    'Conflict',
    nameDetails(def, name),
  );
}

export function badRequest(message: string): ApiError {
  return apiError(400, message, 'BadRequest');
}

export interface Cause {
  reason: string;
  message: string;
  field?: string;
}

/** The apiserver's field.Invalid cause: `Invalid value: <the value as Go prints it>: <detail>`. */
export function invalidValue(field: string, shown: string, detail: string): Cause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${shown}: ${detail}`, field };
}

export function invalid(kind: string, group: string, name: string, causes: Cause[]): ApiError {
  const parts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  const details: JsonObject = { name, group, kind, causes: causes as unknown as Json };
  if (!group) delete details.group;
  if (!name) delete details.name;
  return apiError(422, `${qualifiedKind} "${name}" is invalid: ${summary}`, 'Invalid', details);
}

export function optionsInvalid(kind: string, field: string, reason: string, message: string): ApiError {
  const details: JsonObject = {
    group: 'meta.k8s.io',
    kind,
    causes: [{ reason, message, field }],
  };
  return apiError(422, `${kind}.meta.k8s.io "" is invalid: ${field}: ${message}`, 'Invalid', details);
}

export function unsupportedPatch(): ApiError {
  return apiError(415, '415: Unsupported Media Type', 'UnsupportedMediaType', {});
}

export function methodNotAllowed(): ApiError {
  return apiError(
    405,
    'the server does not allow this method on the requested resource',
    'MethodNotAllowed',
    {},
  );
}

export function unknownResource(): ApiError {
  return apiError(404, 'the server could not find the requested resource', 'NotFound', {});
}
