// What a Durable Object's RPC method answers: its typed result, or the refusal the Worker turns into
// an error response. `unwrap` is the one way a caller reads a result, so no caller casts one.
import type { ErrorBody } from "../protocol/wire/errors";
import { Refusal } from "./refusal";

export type Outcome<T = unknown> = { ok: true; result: T } | { ok: false; error: ErrorBody };

/** The outcome's result; throws the Refusal of the object's error body when it was refused. */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw Refusal.from(outcome.error);
  return outcome.result;
}

/**
 * A command's outcome with its result checked by the schema of what that command answers: one RPC
 * method runs every command, so its result type is the one place the compiler cannot follow.
 */
export function checked<T>(schema: { parse(value: unknown): T }, outcome: Outcome): Outcome<T> {
  return outcome.ok ? { ok: true, result: schema.parse(outcome.result) } : outcome;
}
