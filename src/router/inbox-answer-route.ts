// Answering a card from the inbox: the answer goes to the card's own session, which keeps the
// first-answer-wins rule (409 with the winner); the answer is recorded as given by the person.
import type { Hono } from "hono";
import { z } from "zod";
import { OWNER } from "../protocol/access";
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

export function inboxAnswerRoute(routes: Hono<AppEnv>): void {
  routes.post("/cards/:sessionId/:interactionId/respond", async (c) => {
    const person = personOf(c);
    const link = c.get("inboxLink");
    if (link && link.role !== "answer") throw new HttpError("forbidden", "A view link may not answer cards");
    const sessionId = SessionId.safeParse(c.req.param("sessionId"));
    if (!sessionId.success)
      throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
    const interactionId = InteractionId.safeParse(c.req.param("interactionId"));
    if (!interactionId.success) {
      throw new HttpError("invalid_input", `interactionId: ${describeZodError(interactionId.error)}`);
    }
    const body = await readJsonBody(c, AnswerBody);
    const session = sessionStub(c.env, sessionId.data);
    const creator = await session.creator();
    if (creator === null) throw new HttpError("unknown_session", "No such session");
    if (creator !== person) throw new HttpError("forbidden", "This card belongs to another person's session");
    const command = {
      type: "respond",
      interactionId: interactionId.data,
      response: body.response,
    } as SessionCommand;
    // Who answered is the person, or the inbox link they handed out — never a device id the client chose.
    const outcome = await session.command(command, INBOX_DEVICE, OWNER, link ? linkAnswerer(link) : person);
    if (!outcome.ok) throw HttpError.from(outcome.error);
    return c.json({ ok: true, result: outcome.result ?? null });
  });
}
