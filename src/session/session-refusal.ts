// How a session's entry points say no to the Worker: they throw the one Refusal
// (src/objects/refusal.ts), and the guard that opens every RPC method turns it into
// `{ ok: false, error }`, which a socket sends on as its error frame.

import type { Outcome } from "../objects/outcome";
import { Refusal } from "../objects/refusal";
import type { ErrorBody } from "../protocol/wire/errors";

export { refuse } from "../objects/refusal";

export const UNKNOWN_SESSION: ErrorBody = { code: "unknown_session", message: "No such session" };

/**
 * Runs one RPC entry point: refusals become a refused outcome; anything else is a fault and is
 * thrown on, for the Worker's one error response.
 */
export async function answer<T>(work: () => Outcome<T> | Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.body };
    throw error;
  }
}
