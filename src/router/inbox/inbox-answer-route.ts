// Answering a card from the inbox, or giving it more time: both go to the card's own session with
// the real actor (the person, or the inbox link with its role and label); the session checks the
// person against its creator, refuses what that actor's role may not decide, and keeps
// first-answer-wins (409 with the winner).
import type { Context, Hono } from "hono";
import * as z from "zod";
import type { InboxActor } from "../../objects/contracts/session-inbox";
import { lazySchema } from "../../protocol/lazy-schema";
import { InteractionId, SessionId } from "../../protocol/session/session";
import type { SessionCommand } from "../../protocol/wire/commands";
import { describeZodError } from "../../protocol/wire/errors";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf } from "../person";
import { readJsonBody } from "../read-json-body";

const AnswerBody = lazySchema(() => z.strictObject({ response: z.unknown() }));

/** Who acts from the inbox: the person in person, or the inbox link the request came through. */
export function inboxActorOf(c: Context<AppEnv>): InboxActor {
  const person = personOf(c);
  const link = c.get("inboxLink");
  if (!link) return { kind: "person", person };
  return { kind: "inbox_link", person, linkId: link.linkId, role: link.role, label: link.label };
}

/** The card's session and interaction from the path, once the caller may act on it. `doing` names the act. */
function cardOf(c: Context<AppEnv>, doing: string) {
  const actor = inboxActorOf(c);
  // Refused here too, before the session wakes; the session refuses it again by the link's role.
  if (actor.kind === "inbox_link" && actor.role !== "answer") {
    throw new HttpError("forbidden", `A view link may not ${doing}`);
  }
  const sessionId = SessionId.safeParse(c.req.param("sessionId"));
  if (!sessionId.success)
    throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
  const interactionId = InteractionId.safeParse(c.req.param("interactionId"));
  if (!interactionId.success) {
    throw new HttpError("invalid_input", `interactionId: ${describeZodError(interactionId.error)}`);
  }
  return { actor, sessionId: sessionId.data, interactionId: interactionId.data };
}

/** Sends `command` to the card's session as the actor; the session refuses another person's. */
async function commandAs(c: Context<AppEnv>, card: ReturnType<typeof cardOf>, command: SessionCommand) {
  const outcome = await sessionStub(c.env, card.sessionId).fromInbox(card.actor, {
    type: "command",
    command,
  });
  if (!outcome.ok) throw HttpError.from(outcome.error);
  return c.json({ ok: true, result: outcome.result ?? null });
}

export function inboxAnswerRoute(routes: Hono<AppEnv>): void {
  routes.post("/cards/:sessionId/:interactionId/respond", async (c) => {
    const card = cardOf(c, "answer cards");
    const body = await readJsonBody(c, AnswerBody);
    const command = { type: "respond", interactionId: card.interactionId, response: body.response };
    return commandAs(c, card, command as SessionCommand);
  });

  // "Give me more time" from the inbox: the session moves the deadline by its policy's step, up to
  // its maximum (400 beyond), and reports it to the inbox like any other device's extension.
  routes.post("/cards/:sessionId/:interactionId/extend", async (c) => {
    const card = cardOf(c, "give cards more time");
    return commandAs(c, card, { type: "extend_deadline", interactionId: card.interactionId });
  });
}
