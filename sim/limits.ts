// Size limits of a real kube-apiserver v1.33 + etcd 3.5, with the texts they answer (shared/real-api/13).
//
// - ConfigMap: the SUM of the value lengths in data + binaryData (keys not counted) may be at most
//   1048576 bytes → 422 `[]: Too long: may not be more than 1048576 bytes`.
// - Request body: at most 3145728 bytes are read → 413 `Request entity too large: limit is 3145728`.
// - etcd: a write whose raft request is over --max-request-bytes (1572864) → 500
//   `etcdserver: request is too large`; a gRPC message over the client's 2 MiB send limit → 500
//   `rpc error: code = ResourceExhausted …`. Create, update and non-apply patches are retried once
//   without managedFields; server-side apply is not (the recording's steps 17-18).
//
// The etcd request size is modelled from the recording: the value is the stored JSON (resourceVersion
// cleared, a trailing newline), an update's transaction carries the key three times (compare, put,
// get-on-failure) plus 33 bytes of framing, and the raft request adds 14 more. That reproduces both
// recorded boundaries (1572198-byte status accepted, one byte more refused; 2500652 in the gRPC text).
// A create carries the key twice. Built-in objects are stored as protobuf by a real server, a little
// smaller than their JSON; the JSON estimate errs on the strict side.
import { ApiError, invalid, statusBody } from './errors.ts';
import type { KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

export interface SizeLimits {
  configMapDataBytes: number;
  requestBodyBytes: number;
  etcdRequestBytes: number;
  grpcSendBytes: number;
}

export const DEFAULT_LIMITS: SizeLimits = {
  configMapDataBytes: 1_048_576,
  requestBodyBytes: 3_145_728,
  etcdRequestBytes: 1_572_864,
  grpcSendBytes: 2_097_152,
};

/** ValidateConfigMap's size rule: 422 when data + binaryData values sum to more than the limit. */
export function checkConfigMapSize(def: ResourceDef, o: KObj, limits: SizeLimits): void {
  if (!def.builtin || def.resource !== 'configmaps') return;
  let total = 0;
  if (isObj(o.data))
    for (const v of Object.values(o.data)) if (typeof v === 'string') total += Buffer.byteLength(v);
  if (isObj(o.binaryData))
    for (const v of Object.values(o.binaryData))
      if (typeof v === 'string') total += Buffer.from(v, 'base64').length;
  if (total <= limits.configMapDataBytes) return;
  const message = `Too long: may not be more than ${limits.configMapDataBytes} bytes`;
  throw invalid('ConfigMap', '', String(o.metadata.name ?? ''), [
    { reason: 'FieldValueTooLong', message, field: '[]' },
  ]);
}

function etcdKey(def: ResourceDef, o: KObj): string {
  const ns = def.namespaced ? `${String(o.metadata.namespace ?? '')}/` : '';
  const prefix = def.group && !def.builtin ? `${def.group}/${def.resource}` : def.resource;
  return `/registry/${prefix}/${ns}${String(o.metadata.name ?? '')}`;
}

/** The bytes etcd would be sent for storing `o`: [gRPC message, raft request]. */
export function etcdRequestBytes(def: ResourceDef, o: KObj, creating: boolean): [number, number] {
  const { resourceVersion: _rv, ...metadata } = o.metadata;
  const value = Buffer.byteLength(JSON.stringify({ ...o, metadata })) + 1;
  const key = Buffer.byteLength(etcdKey(def, o));
  const txn = value + (creating ? 2 : 3) * key + 33;
  return [txn, txn + 14];
}

/** 500 as etcd answers when `o` is too large to store, or undefined when it fits. */
export function storageError(
  def: ResourceDef,
  o: KObj,
  creating: boolean,
  limits: SizeLimits,
): ApiError | undefined {
  const [grpc, raft] = etcdRequestBytes(def, o, creating);
  if (grpc > limits.grpcSendBytes) {
    const msg = `rpc error: code = ResourceExhausted desc = trying to send message larger than max (${grpc} vs. ${limits.grpcSendBytes})`;
    return new ApiError(500, statusBody(500, msg, ''));
  }
  if (raft > limits.etcdRequestBytes)
    return new ApiError(500, statusBody(500, 'etcdserver: request is too large', ''));
  return undefined;
}

/**
 * The size checks of one write. Non-apply writes (create, update, merge/JSON/strategic patch) that are
 * too large get one retry without any managedFields, as endpoints/handlers do; apply does not.
 */
export function checkStorable(
  def: ResourceDef,
  o: KObj,
  creating: boolean,
  limits: SizeLimits,
  isApply: boolean,
): void {
  checkConfigMapSize(def, o, limits);
  const err = storageError(def, o, creating, limits);
  if (!err) return;
  if (isApply || o.metadata.managedFields === undefined) throw err;
  delete o.metadata.managedFields;
  const again = storageError(def, o, creating, limits);
  if (again) throw again;
}
