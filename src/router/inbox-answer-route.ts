// Answering a card from the inbox, or giving it more time: both go to the card's own session, which
// keeps first-answer-wins (409 with the winner) and records the person as who acted.
import type { Context, Hono } from "hono";
import * as z from "zod";
import { mayDecideBeyondCard, OWNER } from "../protocol/access";
import type { SessionCommand } from "../protocol/commands";
import { describeZodError } from "../protocol/errors";
import { InteractionId, SessionId } from "../protocol/session";
import { sessionStub } from "../session/session-rpc";
import type { AppEnv } from "./app-env";
import { HttpError } from "./http-error";
import type { InboxLinkClaims } from "./inbox-link-token";
import { personOf } from "./person";
import { readJsonBody } from "./read-json-body";

const AnswerBody = z.strictObject({ response: z.unknown() });

/** The device id receipts show for an answer given from the inbox page. */
const INBOX_DEVICE = "inbox";

/** How an answer given through an inbox link is recorded: its label and its id. */
export function linkAnswerer(link: InboxLinkClaims): string {
  return `${link.label ?? "inbox link"} (inbox link ${link.linkId.slice(0, 8)})`;
}

/**
 * The card's session and interaction from the path, once the caller may act on it: an answer-role
 * link or the person themself, and only in a session that person created. `doing` names the act.
 */
async function cardOf(c: Context<AppEnv>, doing: string) {
  const person = personOf(c);
  const link = c.get("inboxLink");
  if (link && link.role !== "answer") throw new HttpError("forbidden", `A view link may not ${doing}`);
  const sessionId = SessionId.safeParse(c.req.param("sessionId"));
  if (!sessionId.success)
    throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
  const interactionId = InteractionId.safeParse(c.req.param("interactionId"));
  if (!interactionId.success) {
    throw new HttpError("invalid_input", `interactionId: ${describeZodError(interactionId.error)}`);
  }
  return { person, link, sessionId: sessionId.data, interactionId: interactionId.data };
}

/** Sends `command` to the card's session as the person (or their link), refusing another's session. */
async function commandAs(
  c: Context<AppEnv>,
  card: Awaited<ReturnType<typeof cardOf>>,
  command: SessionCommand,
) {
  const session = sessionStub(c.env, card.sessionId);
  const creator = await session.creator();
  if (creator === null) throw new HttpError("unknown_session", "No such session");
  if (creator !== card.person) {
    throw new HttpError("forbidden", "This card belongs to another person's session");
  }
  // Who acted is the person, or the inbox link they handed out — never a device id the client chose.
  const actor = card.link ? linkAnswerer(card.link) : card.person;
  const outcome = await session.command(command, INBOX_DEVICE, OWNER, actor);
  if (!outcome.ok) throw HttpError.from(outcome.error);
  return c.json({ ok: true, result: outcome.result ?? null });
}

export function inboxAnswerRoute(routes: Hono<AppEnv>): void {
  routes.post("/cards/:sessionId/:interactionId/respond", async (c) => {
    const card = await cardOf(c, "answer cards");
    const body = await readJsonBody(c, AnswerBody);
    const command = { type: "respond", interactionId: card.interactionId, response: body.response };
    // An answer link makes grants for one session at most, as the session's own answer links do.
    if (card.link && !mayDecideBeyondCard(card.link.role, command)) {
      throw new HttpError(
        "forbidden",
        "An answer link may approve once, or make a grant for this session only",
      );
    }
    return commandAs(c, card, command as SessionCommand);
  });

  // "Give me more time" from the inbox: the session moves the deadline by its policy's step, up to
  // its maximum (400 beyond), and reports it to the inbox like any other device's extension.
  routes.post("/cards/:sessionId/:interactionId/extend", async (c) => {
    const card = await cardOf(c, "give cards more time");
    return commandAs(c, card, { type: "extend_deadline", interactionId: card.interactionId });
  });
}
