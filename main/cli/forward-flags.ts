/**
 * `--forward KIND=URL` (repeatable; KIND ntfy, webhook, slack or discord) and the secrets that go with
 * it: `--forward-token-file F` or `--forward-user-file F` (user:password) for ntfy, and
 * `--forward-signing-key-file F` for webhooks, each a 0600 file; or the environment variables
 * GPU_FLEET_FORWARD_TOKEN, GPU_FLEET_FORWARD_USER and GPU_FLEET_FORWARD_SIGNING_KEY. The targets are
 * named after their kind and place (ntfy-1, webhook-1, …); by default they forward every context at
 * every severity in English (the CLI's language), or what `--forward-context`, `--forward-min-severity`
 * and `--forward-language` say, for all of them.
 */
import { hasControlChars } from '../../common/cluster-text.ts';
import {
  FORWARD_CLUSTERS_MAX,
  FORWARD_KINDS,
  type ForwardKind,
  type ForwardSecret,
  type ForwardTarget,
  SEVERITIES,
  type Severity,
} from '../../common/forwarding.ts';
import { isLocale, LOCALES } from '../../common/i18n/locales.ts';
import { parseEndpoint, tokenProblem } from '../forward/endpoint.ts';
import type { ResolvedTarget } from '../forward/forwarder.ts';
import { readSecretFile } from '../forward/secret-file.ts';
import { CliError } from './io.ts';

export const FORWARD_FLAGS = {
  forward: { type: 'string', multiple: true },
  'forward-token-file': { type: 'string' },
  'forward-user-file': { type: 'string' },
  'forward-signing-key-file': { type: 'string' },
  'forward-min-severity': { type: 'string' },
  'forward-context': { type: 'string', multiple: true },
  'forward-language': { type: 'string' },
} as const;

export interface ForwardFlagValues {
  forward?: string[] | undefined;
  'forward-token-file'?: string | undefined;
  'forward-user-file'?: string | undefined;
  'forward-signing-key-file'?: string | undefined;
  'forward-min-severity'?: string | undefined;
  'forward-context'?: string[] | undefined;
  'forward-language'?: string | undefined;
}

/** `--forward-min-severity`, `--forward-context` (repeatable) and `--forward-language`, for every target. */
function routing(flags: ForwardFlagValues): Pick<ForwardTarget, 'clusters' | 'minSeverity' | 'language'> {
  const severity = flags['forward-min-severity'] ?? 'low';
  if (!(SEVERITIES as readonly string[]).includes(severity))
    throw new CliError(`--forward-min-severity must be one of ${SEVERITIES.join(', ')}`);
  const language = flags['forward-language'] ?? 'en';
  if (!isLocale(language)) throw new CliError(`--forward-language must be one of ${LOCALES.join(', ')}`);
  const contexts = flags['forward-context'] ?? [];
  if (contexts.length > FORWARD_CLUSTERS_MAX)
    throw new CliError(`at most ${FORWARD_CLUSTERS_MAX} --forward-context names`);
  if (contexts.some((c) => c === '' || c.length > 253 || hasControlChars(c)))
    throw new CliError('--forward-context takes a kubeconfig context name');
  return { clusters: contexts.length === 0 ? 'all' : contexts, minSeverity: severity as Severity, language };
}

export const FORWARD_TARGETS_FLAG_MAX = 8;

function secretFrom(
  file: string | undefined,
  flag: string,
  envValue: string | undefined,
): string | undefined {
  if (file === undefined) return envValue === '' ? undefined : envValue;
  const read = readSecretFile(file, flag);
  if (!read.ok) throw new CliError(read.error);
  return read.value;
}

/** The `KIND=URL` of one `--forward` or of `notify test`, checked; the URL never appears in a refusal. */
export function parseForwardSpec(spec: string): { kind: ForwardKind; url: string } {
  const eq = spec.indexOf('=');
  const kind = spec.slice(0, Math.max(0, eq));
  if (eq < 0 || !(FORWARD_KINDS as readonly string[]).includes(kind))
    throw new CliError(
      `--forward takes KIND=URL with KIND one of ${FORWARD_KINDS.join(', ')} (e.g. ntfy=http://127.0.0.1:8090/gpu-alerts)`,
    );
  return { kind: kind as ForwardKind, url: spec.slice(eq + 1) };
}

export function forwardTargets(
  specs: readonly string[],
  flags: ForwardFlagValues,
  env: NodeJS.ProcessEnv,
): ResolvedTarget[] {
  if (specs.length > FORWARD_TARGETS_FLAG_MAX)
    throw new CliError(`at most ${FORWARD_TARGETS_FLAG_MAX} --forward targets`);
  if (specs.length === 0) return [];
  if (flags['forward-token-file'] !== undefined && flags['forward-user-file'] !== undefined)
    throw new CliError('give --forward-token-file or --forward-user-file, not both');
  const token = secretFrom(flags['forward-token-file'], '--forward-token-file', env.GPU_FLEET_FORWARD_TOKEN);
  const userLine = secretFrom(flags['forward-user-file'], '--forward-user-file', env.GPU_FLEET_FORWARD_USER);
  const signingKey = secretFrom(
    flags['forward-signing-key-file'],
    '--forward-signing-key-file',
    env.GPU_FLEET_FORWARD_SIGNING_KEY,
  );
  const badToken = token === undefined ? null : tokenProblem(token);
  if (badToken) throw new CliError(`--forward-token-file / GPU_FLEET_FORWARD_TOKEN: ${badToken}`);
  let user: { user: string; password: string } | null = null;
  if (userLine !== undefined) {
    const colon = userLine.indexOf(':');
    if (colon <= 0) throw new CliError('--forward-user-file must hold user:password on one line');
    user = { user: userLine.slice(0, colon), password: userLine.slice(colon + 1) };
  }
  const route = routing(flags);
  const counts = new Map<ForwardKind, number>();
  return specs.map((spec) => {
    const { kind, url } = parseForwardSpec(spec);
    const checked = parseEndpoint(kind, url);
    if (!checked.ok) throw new CliError(`--forward: ${checked.error}`);
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    const secret: ForwardSecret = { url };
    if (kind === 'ntfy' && token !== undefined) secret.token = token;
    else if (kind === 'ntfy' && user !== null) Object.assign(secret, user);
    if (kind === 'webhook' && signingKey !== undefined) secret.signingKey = signingKey;
    return {
      config: {
        id: `${kind}-${n}`,
        kind,
        host: checked.endpoint.host,
        ...route,
        enabled: true,
      },
      endpoint: checked.endpoint,
      secret,
    };
  });
}
