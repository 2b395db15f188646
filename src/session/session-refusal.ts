// How the object says no to the Worker: an entry point throws a SessionRefusal and the one guard
// that opens every RPC method turns it into `{ ok: false, error }`, so error bodies are built here.

import type { Outcome } from "../objects/outcome";
import type { ErrorBody } from "../protocol/errors";

export class SessionRefusal extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message);
  }
}

/** Stops the entry point with this refusal. */
export function refuse(code: ErrorBody["code"], message: string): never {
  throw new SessionRefusal({ code, message });
}

export const UNKNOWN_SESSION: ErrorBody = { code: "unknown_session", message: "No such session" };

/**
 * Runs one RPC entry point: refusals become a refused outcome; anything else is a fault and is
 * thrown on, for the Worker's one error response.
 */
export async function answer<T>(work: () => Outcome<T> | Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionRefusal) return { ok: false, error: error.body };
    throw error;
  }
}
