/**
 * The ops server's caps. Its callers are kubelet probes (one request per connection) and a Prometheus
 * scrape every 15 s or so (one request, maybe a kept-alive connection): anything far beyond these is
 * not a caller we serve.
 */
export interface OpsLimits {
  /** Open connections at once; more are closed on arrival. */
  maxConnections: number;
  /** Answers written to one socket and not yet taken by its client; one more closes the socket. */
  maxPipelined: number;
  /** Bytes of such answers per socket; past this the socket is closed. */
  maxBufferedBytes: number;
  /** From connect, or from the previous request, until a whole request header must have arrived. */
  headerTimeoutMs: number;
}

export const OPS_LIMITS: OpsLimits = {
  maxConnections: 32,
  maxPipelined: 4,
  maxBufferedBytes: 1 << 20,
  headerTimeoutMs: 5_000,
};
