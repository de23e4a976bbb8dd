/**
 * Why an invoke failed in the window's own bridge (Electron's preload, the browser's web bridge), as
 * facts the window words in its language (`bridgeWords.*`): the engine did not answer, answered an HTTP
 * status without a refusal of its own, or answered something that is no reply. The English sentence that
 * goes with them (logs, tests) is the English of the same key. Codes start with `bridge`.
 */
export type BridgeWords =
  | { code: 'bridgeNoAnswer' }
  | { code: 'bridgeHttp'; status: number }
  | { code: 'bridgeUnexpected' }
  /** A channel the contract does not have: a bug of the window itself. */
  | { code: 'bridgeUnknownChannel'; channel: string };

export type BridgeWordsCode = BridgeWords['code'];

export const BRIDGE_WORDS_VALUES: Readonly<Record<BridgeWordsCode, readonly string[]>> = {
  bridgeNoAnswer: [],
  bridgeHttp: ['status'],
  bridgeUnexpected: [],
  bridgeUnknownChannel: ['channel'],
};

/** The English of each, as the bridges write it (a test checks it against the catalog). */
export const BRIDGE_ENGLISH = {
  noAnswer: 'The GPU Fleet engine did not answer.',
  http: (status: number) => `The engine answered HTTP ${status}.`,
  unexpected: 'The engine answered something unexpected.',
  unknownChannel: (channel: string) => `unknown channel ${channel}`,
} as const;
