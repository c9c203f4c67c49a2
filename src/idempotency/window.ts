// What every idempotency module shares: how long a record answers, and the answer it keeps.
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

export interface WriteResult {
  statusCode: number;
  body: unknown;
  location?: string;
  /** A replay's body as it was first sent (JSON text), to send again as it is. */
  text?: string;
}
