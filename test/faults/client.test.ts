/**
 * Fault matrix, reaching the API server: TLS trust and host name, DNS, a wrong token (401), no
 * credentials (403). Each shows its named state and one sentence, invents no inventory and raises no
 * alert (refused.ts).
 */
import dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { makeTls } from '../../sim/tls.ts';
import { caData, contextFor } from './kubeconfig.ts';
import { ca, checkRefused, type Refused } from './refused.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

/** `.invalid` never resolves (RFC 6761); answering here as the resolver would keeps even the DNS query local. */
let stubbedLookups = 0;
function noDnsFor(suffix: string): void {
  const real = dns.lookup;
  const fake = (host: string, ...rest: unknown[]) => {
    const cb = rest.at(-1) as (e: NodeJS.ErrnoException | null) => void;
    if (!host.endsWith(suffix)) return (real as (...a: unknown[]) => void)(host, ...rest);
    stubbedLookups++;
    const e: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
      code: 'ENOTFOUND',
      hostname: host,
    });
    process.nextTick(() => cb(e));
  };
  dns.lookup = fake as typeof dns.lookup;
  cleanup(() => {
    dns.lookup = real;
  });
}

const REFUSED: Refused[] = [
  {
    fault: 'a server certificate from another CA (TLS mismatch)',
    context: async (s) =>
      contextFor(
        s.dir,
        { server: s.sim.url, 'certificate-authority-data': caData((await makeTls()).caPem) },
        { token: s.sim.tokens.admin },
      ),
    phase: 'config-error',
    message: /^The certificate of 127\.0\.0\.1:\d+ is not signed by the kubeconfig's certificate authority/,
    retries: false,
  },
  {
    fault: 'a tls-server-name the certificate does not cover',
    context: (s) =>
      contextFor(s.dir, { ...ca(s), 'tls-server-name': 'api.other.example' }, { token: s.sim.tokens.admin }),
    phase: 'config-error',
    message: /is not valid for that host name; check the server address or tls-server-name/,
    retries: false,
  },
  {
    fault: 'a server name that does not resolve (DNS)',
    context: (s) => {
      noDnsFor('.invalid');
      return contextFor(s.dir, { ...ca(s), server: 'https://gpu-fleet-test.invalid:6443' }, { token: 't' });
    },
    phase: 'unreachable',
    message:
      /^The name gpu-fleet-test\.invalid:6443 could not be resolved \(DNS\); check the network or VPN\.$/,
    retries: true,
    also: () => expect(stubbedLookups).toBeGreaterThan(0),
  },
  {
    fault: 'a wrong token (401)',
    context: (s) => contextFor(s.dir, ca(s), { token: 'not-a-token' }),
    phase: 'unauthorized',
    message: /^The cluster rejected the credentials, or they have expired \(401\)\.$/,
    retries: true,
  },
  {
    fault: 'no credentials at all (403 for system:anonymous)',
    context: (s) => contextFor(s.dir, ca(s), null),
    phase: 'forbidden',
    message:
      /^Not allowed listing nodes: nodes is forbidden: User "system:anonymous" cannot list resource "nodes"/,
    retries: true,
  },
];

describe('refused connections: the named state and one sentence, no inventory invented, no alert', () => {
  it.each(REFUSED)('$fault → $phase', (f) => checkRefused(f, cleanup));
});
