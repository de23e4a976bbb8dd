/**
 * The desktop shell's side of forwarding secrets (Electron-free; main/electron hands in safeStorage's
 * vault): it answers `forward:secret` itself, so a secret goes from the window's form into the vault and
 * on to the engine host, and never through the host's settings or a reply. The window hears back only
 * the view, which says whether a secret is set. `forward:remove` also drops the target's secret.
 * Refusals are sentences that name the target id, never the secret.
 */
import type { ForwardSecretInput, ForwardTargetSetting, ForwardView } from '../../common/forwarding.ts';
import type { HostReply } from '../../common/host-protocol.ts';
import { ARG_SCHEMAS, type InvokeReply } from '../../common/ipc.ts';
import { check } from '../../common/validate.ts';
import { checkSecretInput } from '../forward/desktop-targets.ts';
import type { SecretVault } from './secret-vault.ts';

export interface SecretsHost {
  invoke(channel: string, args: unknown[]): Promise<HostReply>;
  setSecrets(secrets: Record<string, ForwardSecretInput>): void;
}

type Vault = Pick<SecretVault, 'load' | 'set' | 'remove'>;
type Log = (msg: string, fields?: Record<string, unknown>) => void;

const refuse = (message: string): InvokeReply => ({ ok: false, error: { kind: 'bad-request', message } });

/** What the host needs of a vault entry: empty parts left out (the vault keeps `url` '' for ntfy). */
function forHost(s: ForwardSecretInput): ForwardSecretInput {
  const out: ForwardSecretInput = {};
  for (const k of ['url', 'token', 'user', 'password', 'signingKey'] as const) {
    const v = s[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

export class ShellSecrets {
  constructor(
    private readonly vault: Vault,
    private readonly host: SecretsHost,
    private readonly log: Log,
  ) {}

  /** Decrypts the vault and hands the secrets to the host (call once, before the host starts). */
  load(): void {
    const { secrets, problems } = this.vault.load();
    // The problems name target ids only (secret-vault.ts).
    for (const p of problems) this.log('forwarding secret', { problem: p });
    this.host.setSecrets(Object.fromEntries(Object.entries(secrets).map(([id, s]) => [id, forHost(s)])));
  }

  /** Whether this process answers the channel itself (`forward:secret`) or adds to it (`forward:remove`). */
  handles(channel: string): boolean {
    return channel === 'forward:secret' || channel === 'forward:remove';
  }

  async invoke(channel: string, args: unknown[]): Promise<InvokeReply> {
    if (channel === 'forward:remove') return this.#remove(args);
    const parsed = check(ARG_SCHEMAS['forward:secret'], args);
    // The check's words name the field that failed, never its value.
    if (!parsed.ok) return refuse(`forward:secret: ${parsed.error}`);
    const [id, secret] = parsed.value;
    const view = await this.#view();
    if (!view.ok) return view.reply;
    const target = view.value.editable?.find((t: ForwardTargetSetting) => t.id === id);
    if (!target) return refuse(`There is no forwarding target "${id}".`);
    if (secret === null) {
      const removed = this.vault.remove(id);
      if (!removed.ok) return refuse(removed.error);
    } else {
      const problem = checkSecretInput(target.kind, secret);
      if (problem) return refuse(`${id}: ${problem}`);
      const stored = this.vault.set(id, { url: '', ...secret });
      if (!stored.ok) return refuse(stored.error);
    }
    this.load();
    return this.host.invoke('forward:list', []);
  }

  async #remove(args: unknown[]): Promise<InvokeReply> {
    const reply = await this.host.invoke('forward:remove', args);
    const id = args[0];
    if (reply.ok && typeof id === 'string') {
      const removed = this.vault.remove(id);
      if (!removed.ok) this.log('forwarding secret', { problem: removed.error });
      this.load();
    }
    return reply;
  }

  async #view(): Promise<{ ok: true; value: ForwardView } | { ok: false; reply: InvokeReply }> {
    const reply = await this.host.invoke('forward:list', []);
    if (!reply.ok) return { ok: false, reply };
    return { ok: true, value: JSON.parse(reply.json) as ForwardView };
  }
}
