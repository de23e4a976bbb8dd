/**
 * The desktop shell's side of forwarding secrets (Electron-free; main/electron hands in safeStorage's
 * vault): it answers `forward:secret` itself, so a secret goes from the window's form into the vault and
 * on to the engine host, and never through the host's settings or a reply. The window hears back only
 * the view, which says whether a secret is set. `forward:remove` also drops the target's secret. Every
 * view it passes on (`forward:list`, `forward:save`, `forward:remove`, `forward:secret`) gets `vault`:
 * whether secrets can be kept here at all (said before anyone types one) and what the vault's last read
 * found wrong. Refusals carry their facts (`ForwardWords`, for the window's language) and their English,
 * naming the target id, never the secret.
 */
import type { ForwardWords } from '../../common/forward-words.ts';
import {
  type ForwardSecretInput,
  type ForwardTargetSetting,
  type ForwardView,
  TARGET_ID,
} from '../../common/forwarding.ts';
import type { HostReply } from '../../common/host-protocol.ts';
import { forwardWordsEnglish } from '../../common/i18n/forward-words-text.ts';
import { ARG_SCHEMAS, type InvokeReply } from '../../common/ipc.ts';
import { check } from '../../common/validate.ts';
import { checkSecretInput } from '../forward/desktop-targets.ts';
import type { SecretVault } from './secret-vault.ts';

export interface SecretsHost {
  invoke(channel: string, args: unknown[]): Promise<HostReply>;
  setSecrets(secrets: Record<string, ForwardSecretInput>): void;
}

type Vault = Pick<SecretVault, 'load' | 'set' | 'remove' | 'unavailable'>;
type Log = (msg: string, fields?: Record<string, unknown>) => void;

const refuse = (words: ForwardWords, message = forwardWordsEnglish(words)): InvokeReply => ({
  ok: false,
  error: { kind: 'bad-request', message, words },
});

/** The channels whose answer is the forwarding view. */
const VIEWS: ReadonlySet<string> = new Set([
  'forward:list',
  'forward:save',
  'forward:remove',
  'forward:secret',
]);

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
  /** What the vault's last read found wrong (a file moved aside is named there once, and kept here). */
  #problems: ForwardWords[] = [];

  constructor(
    private readonly vault: Vault,
    private readonly host: SecretsHost,
    private readonly log: Log,
  ) {}

  /** Decrypts the vault and hands the secrets to the host (call once, before the host starts). */
  load(): void {
    const { secrets, problems } = this.vault.load();
    // The problems name target ids only (secret-vault.ts).
    for (const p of problems) this.log('forwarding secret', { problem: forwardWordsEnglish(p) });
    this.#problems = problems;
    this.host.setSecrets(Object.fromEntries(Object.entries(secrets).map(([id, s]) => [id, forHost(s)])));
  }

  /**
   * Whether this process answers the channel itself (`forward:secret`), adds to it (`forward:remove`)
   * or adds to its answer (every view).
   */
  handles(channel: string): boolean {
    return VIEWS.has(channel);
  }

  async invoke(channel: string, args: unknown[]): Promise<InvokeReply> {
    if (channel === 'forward:remove') return this.#withVault(await this.#remove(args));
    if (channel !== 'forward:secret') return this.#withVault(await this.host.invoke(channel, args));
    const parsed = check(ARG_SCHEMAS['forward:secret'], args);
    // The check's words name the field that failed, never its value.
    if (!parsed.ok)
      return refuse(
        typeof args[0] === 'string' && TARGET_ID.test(args[0])
          ? { code: 'secretInvalid' }
          : { code: 'badId' },
        `forward:secret: ${parsed.error}`,
      );
    const [id, secret] = parsed.value;
    const view = await this.#view();
    if (!view.ok) return view.reply;
    const target = view.value.editable?.find((t: ForwardTargetSetting) => t.id === id);
    if (!target) return refuse({ code: 'noTarget', id });
    if (secret === null) {
      const removed = this.vault.remove(id);
      if (!removed.ok) return refuse(removed.words);
    } else {
      const problem = checkSecretInput(id, target.kind, secret);
      if (problem) return refuse(problem);
      const stored = this.vault.set(id, { url: '', ...secret });
      if (!stored.ok) return refuse(stored.words);
    }
    this.load();
    return this.#withVault(await this.host.invoke('forward:list', []));
  }

  /** A view answer with the vault's state added; any other answer as it is. */
  #withVault(reply: InvokeReply): InvokeReply {
    if (!reply.ok || !('json' in reply)) return reply;
    let view: unknown;
    try {
      view = JSON.parse(reply.json);
    } catch {
      return reply;
    }
    if (typeof view !== 'object' || view === null || Array.isArray(view)) return reply;
    const vault: ForwardView['vault'] = { unavailable: this.vault.unavailable(), problems: this.#problems };
    return { ok: true, json: JSON.stringify({ ...view, vault }) };
  }

  async #remove(args: unknown[]): Promise<InvokeReply> {
    const reply = await this.host.invoke('forward:remove', args);
    const id = args[0];
    if (reply.ok && typeof id === 'string') {
      const removed = this.vault.remove(id);
      if (!removed.ok) this.log('forwarding secret', { problem: forwardWordsEnglish(removed.words) });
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
