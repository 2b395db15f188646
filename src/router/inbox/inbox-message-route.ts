// A message from the inbox to a session's agent: sent as the inbox's actor (the person, or an
// answer inbox link), which the session checks against its creator and the actor's role, as the
// session's own `POST …/messages` would with a share link.
import type { Hono } from "hono";
import { lazySchema } from "../../protocol/lazy-schema";
import { SessionId } from "../../protocol/session/session";
import { SendMessageCommand } from "../../protocol/wire/commands";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { readJsonBody } from "../read-json-body";
import { inboxActorOf } from "./inbox-answer-route";

const MessageBody = lazySchema(() => SendMessageCommand.omit({ type: true, requestId: true }));

export function inboxMessageRoute(routes: Hono<AppEnv>): void {
  routes.post("/sessions/:sessionId/messages", async (c) => {
    const actor = inboxActorOf(c);
    if (actor.kind === "inbox_link" && actor.role !== "answer")
      throw new HttpError("forbidden", "A view link may not send messages");
    const sessionId = SessionId.safeParse(c.req.param("sessionId"));
    if (!sessionId.success)
      throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
    const body = await readJsonBody(c, MessageBody);
    const header = c.req.header("idempotency-key");
    if (header !== undefined && (header.length < 1 || header.length > 64))
      throw new HttpError("invalid_input", "Idempotency-Key must be 1 to 64 characters");
    const command = { type: "send_message" as const, ...body, ...(header ? { requestId: header } : {}) };
    const outcome = await sessionStub(c.env, sessionId.data).fromInbox(actor, { type: "command", command });
    if (!outcome.ok) throw HttpError.from(outcome.error);
    return c.json({ ok: true, result: outcome.result ?? null }, 202);
  });
}
