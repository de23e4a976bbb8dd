/** One HTTP request a delivery makes, as data (the renderers make it, `sendRequest` sends it). */
export interface OutboundRequest {
  method: 'POST' | 'GET';
  url: string;
  /** Lower-case names. May carry a credential: never logged, never put in a sentence. */
  headers: Record<string, string>;
  body: string | null;
}
