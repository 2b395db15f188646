// The digest a decision record keeps of a card's request: SHA-256 of its JSON, computed
// synchronously (the outbox row is written inside the event's transaction, where the platform's
// async digest cannot be awaited), by @noble/hashes rather than by hand.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** The digest a decision record keeps of a card's request. */
export function inputDigest(request: unknown): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(request ?? null))));
}
