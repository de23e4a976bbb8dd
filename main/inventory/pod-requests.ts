/**
 * A pod's effective request per resource, by the scheduler's rule (k8s.io/component-helpers resource
 * PodRequests, which kube-scheduler's NodeResourcesFit uses): app containers and restartable (sidecar)
 * init containers run together and are summed; one-shot init containers run one at a time, each beside
 * the sidecars declared before it, and the largest of those moments counts if it is above the sum; the
 * pod's overhead is added on top. A container's missing request for an extended resource is its limit
 * (the API server defaults it so; a pod file read from disk is not defaulted yet).
 */

export type Quantities = Readonly<Record<string, number>>;

export interface ContainerRequests {
  /** Requests per resource, the limit standing in for a missing request. */
  requests: Quantities;
  /** An init container with restartPolicy Always (a native sidecar). Ignored for app containers. */
  sidecar?: boolean;
}

export interface PodResourceSpec {
  containers: readonly ContainerRequests[];
  initContainers: readonly ContainerRequests[];
  overhead: Quantities;
}

export function podRequests(spec: PodResourceSpec): Record<string, number> {
  const reqs: Record<string, number> = {};
  for (const c of spec.containers) add(reqs, c.requests);
  const sidecars: Record<string, number> = {};
  const initPeak: Record<string, number> = {};
  for (const c of spec.initContainers) {
    if (c.sidecar === true) {
      add(reqs, c.requests);
      add(sidecars, c.requests);
      raise(initPeak, sidecars);
    } else {
      const moment: Record<string, number> = {};
      add(moment, c.requests);
      add(moment, sidecars);
      raise(initPeak, moment);
    }
  }
  raise(reqs, initPeak);
  add(reqs, spec.overhead);
  return reqs;
}

/** The request of each container: its request, else its limit (defaulting as the API server does). */
export function requestsOrLimits(requests: Quantities, limits: Quantities): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(limits)) out[name] = limits[name] ?? 0;
  for (const name of Object.keys(requests)) out[name] = requests[name] ?? 0;
  return out;
}

function add(into: Record<string, number>, more: Quantities): void {
  for (const name of Object.keys(more)) into[name] = (into[name] ?? 0) + (more[name] ?? 0);
}

function raise(into: Record<string, number>, other: Quantities): void {
  for (const name of Object.keys(other)) {
    const v = other[name] ?? 0;
    if (v > (into[name] ?? 0)) into[name] = v;
  }
}
