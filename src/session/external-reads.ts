// The object's side of the external API that is not a command: reading a card with a long-poll
// wait, and the one agent link a keyed external session hands out again on every create.

import { readExternalInteraction } from "../agent/external-interaction";
import type { Outcome } from "../objects/outcome";
import type { ShareLinkView } from "../protocol/access/access";
import type { ExternalInteraction } from "../protocol/external/external";
import { unknownInteraction } from "../protocol/wire/errors";
import { SqlExternalKeys } from "./external-session";
import type { InteractionWaiters } from "./interaction-waiters";
import type { SessionState } from "./session-state";
import type { ShareLinks } from "./stores/share-links";

/**
 * Reads external card `interactionId`; while it is pending and `waitMs` > 0, waits (without
 * polling) until it resolves or the time ends, then reads it again.
 */
export async function readExternal(
  state: SessionState,
  waiters: InteractionWaiters,
  interactionId: string,
  waitMs: number,
  exists: () => boolean,
): Promise<Outcome<ExternalInteraction>> {
  const keys = new SqlExternalKeys(state.sql);
  const first = readExternalInteraction(state, keys, interactionId);
  if (!first) return unknownInteraction(interactionId);
  if (first.status !== "pending" || waitMs <= 0) return { ok: true, result: first };
  await waiters.wait(interactionId, waitMs);
  // The session may have been deleted while the request waited.
  if (!exists()) return { ok: false, error: { code: "unknown_session", message: "No such session" } };
  return { ok: true, result: readExternalInteraction(state, keys, interactionId) ?? first };
}

/**
 * The live agent link `link.linkId`, else another live agent link, else a new one (with id
 * `fallbackLinkId` when `link.linkId` was revoked or expired), so re-creating never piles up links.
 */
export function ensureAgentLink(
  links: ShareLinks,
  link: Pick<ShareLinkView, "linkId" | "label">,
  fallbackLinkId: string,
): Outcome<ShareLinkView> {
  const all = links.list();
  const live = all.filter((candidate) => candidate.role === "agent" && links.isLive(candidate.linkId));
  const found = live.find((candidate) => candidate.linkId === link.linkId) ?? live.at(-1);
  if (found) return { ok: true, result: found };
  const linkId = all.some((candidate) => candidate.linkId === link.linkId) ? fallbackLinkId : link.linkId;
  const added = links.add({ linkId, role: "agent", label: link.label, expiresAt: null });
  if (added) return { ok: true, result: added };
  return { ok: false, error: { code: "too_many_links", message: "This session holds too many share links" } };
}
