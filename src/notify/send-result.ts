// How one delivery attempt ended, shared by the push and webhook senders.

export type SendResult =
  | { kind: "delivered"; httpStatus: number }
  /** Worth trying again later: network errors, timeouts, 429 and 5xx answers. */
  | { kind: "retry"; httpStatus: number | null; error: string }
  /** The receiver refused for good (another 4xx). */
  | { kind: "failed"; httpStatus: number; error: string }
  /** The push service says the subscription no longer exists (404/410). */
  | { kind: "gone"; httpStatus: number };

export const SEND_TIMEOUT_MS = 10_000;
/** Most of an error answer's body read: a receiver cannot make the object buffer a large one. */
export const MAX_ERROR_BODY_BYTES = 1024;

/** The first `limit` bytes of the body as text; the rest is never read. */
async function readPrefix(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body that fails midway says what it said so far.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.byteLength - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
    if (offset >= bytes.byteLength) break;
  }
  return new TextDecoder().decode(bytes);
}

/** Classifies an HTTP answer from a webhook receiver or a push service. */
export async function resultOf(response: Response): Promise<SendResult> {
  const status = response.status;
  const text = response.ok ? "" : (await readPrefix(response, MAX_ERROR_BODY_BYTES)).slice(0, 200);
  if (response.ok) return { kind: "delivered", httpStatus: status };
  if (status === 429 || status >= 500)
    return { kind: "retry", httpStatus: status, error: text || `HTTP ${status}` };
  return { kind: "failed", httpStatus: status, error: text || `HTTP ${status}` };
}

/** A fetch that never throws: network failures and timeouts become a `retry`. */
export async function attempt(
  send: (signal: AbortSignal) => Promise<Response>,
): Promise<Response | SendResult> {
  try {
    return await send(AbortSignal.timeout(SEND_TIMEOUT_MS));
  } catch (error) {
    return { kind: "retry", httpStatus: null, error: error instanceof Error ? error.message : String(error) };
  }
}
