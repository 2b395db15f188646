// Routes of the person's inbox (docs/inbox.md#the-inbox): the view, and its event stream over SSE or a
// WebSocket. Who asks was settled by src/router/person.ts; each person reaches only their own.
import { type Context, Hono } from "hono";
import * as z from "zod";
import { INBOX_PERSON_HEADER, INBOX_TAG_HEADER, PERSON_TAG } from "../../inbox/inbox-stream-request";
import { logSecurityEvent } from "../../log/security-log";
import { ticketHeader } from "../../objects/spent-tickets";
import { lazySchema } from "../../protocol/lazy-schema";
import { describeZodError } from "../../protocol/wire/errors";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { inboxLinkRoutes } from "../access/inbox-link-routes";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf } from "../person";
import { checkInboxTicket, type InboxTicket, signInboxTicket } from "../tickets/inbox-ticket";
import { inboxAnswerRoute } from "./inbox-answer-route";
import { inboxMessageRoute } from "./inbox-message-route";
import { inboxOpenRoute } from "./inbox-open-route";
import { inboxPushRoutes } from "./inbox-push-routes";

export const inboxRoutes = new Hono<AppEnv>();

// A link's role and expiry are in its token; whether it was revoked only its inbox knows.
inboxRoutes.use("*", async (c, next) => {
  const link = c.get("inboxLink");
  if (link && !(await inboxStub(c.env, link.person).linkIsLive(link.linkId))) {
    logSecurityEvent("credential_refused", { linkId: link.linkId, reason: "inbox_link_revoked" });
    throw new HttpError("forbidden", "This inbox link was revoked");
  }
  await next();
});

inboxAnswerRoute(inboxRoutes);
inboxLinkRoutes(inboxRoutes);
inboxMessageRoute(inboxRoutes);
inboxOpenRoute(inboxRoutes);
inboxPushRoutes(inboxRoutes);
// A ticket for whoever asks (the person, or their inbox link), to put in a stream's URL.
inboxRoutes.post("/ws-ticket", async (c) => {
  const secret = c.get("config").sessionSecret;
  return c.json(await signInboxTicket(secret, personOf(c), c.get("inboxLink"), Date.now()), 201);
});

inboxRoutes.get("/stats", async (c) => c.json(await inboxStub(c.env, personOf(c)).stats()));

inboxRoutes.get("/", async (c) => {
  const person = personOf(c);
  return c.json(await inboxStub(c.env, person).view(person));
});

const Cursor = lazySchema(() =>
  z.string().regex(/^\d{1,15}$/, "must be an inbox event seq (a whole number)"),
);

/** `Last-Event-ID` (a reconnecting EventSource) wins over `?after=`. */
function cursorOf(lastEventId: string | undefined, after: string | undefined): string {
  const value = lastEventId ?? after ?? "0";
  const parsed = Cursor.safeParse(value);
  if (!parsed.success) {
    const name = lastEventId !== undefined ? "Last-Event-ID" : "after";
    throw new HttpError("invalid_input", `${name}: ${describeZodError(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * Who opens a stream: a browser states it with a single-use ticket, anything else with a bearer
 * credential. Never by what the browser sends unasked (an Access cookie, a loopback address): a
 * page of another site could otherwise open the person's stream and read every card.
 */
async function openerOf(c: Context<AppEnv>): Promise<{ person: string; tag: string; ticket?: InboxTicket }> {
  const authorization = c.req.header("authorization");
  const ticket = authorization ? undefined : c.req.query("ticket");
  if (ticket === undefined && !authorization && !c.get("inboxLink")) {
    throw new HttpError(
      "unauthorized",
      "The inbox stream needs ?ticket= (POST /api/inbox/ws-ticket) or a bearer credential",
    );
  }
  if (ticket === undefined) return { person: personOf(c), tag: c.get("inboxLink")?.linkId ?? PERSON_TAG };
  const admitted = await checkInboxTicket(c.get("config").sessionSecret, ticket, Date.now());
  return { person: admitted.person, tag: admitted.link?.linkId ?? PERSON_TAG, ticket: admitted };
}

async function openStream(c: Context<AppEnv>, kind: "stream" | "ws"): Promise<Response> {
  const { person, tag, ticket } = await openerOf(c);
  const url = new URL(c.req.url);
  const forwarded = new URL(`/inbox/${kind}`, url.origin);
  forwarded.searchParams.set("after", cursorOf(c.req.header("last-event-id"), c.req.query("after")));
  const headers = new Headers({
    [INBOX_PERSON_HEADER]: person,
    [INBOX_TAG_HEADER]: tag,
    ...ticketHeader(ticket),
  });
  if (kind === "ws") headers.set("upgrade", "websocket");
  const response = await inboxStub(c.env, person).fetch(
    new Request(forwarded, { headers, signal: kind === "stream" ? c.req.raw.signal : null }),
  );
  if (response.status === 101) return new Response(null, { status: 101, webSocket: response.webSocket });
  if (response.ok) return new Response(response.body, response);
  const refused = (await response.json()) as { code?: string; message?: string };
  if (
    refused.code === "forbidden" ||
    refused.code === "rate_limited" ||
    refused.code === "too_many_sockets"
  ) {
    throw new HttpError(refused.code, refused.message ?? "Refused");
  }
  throw new HttpError("invalid_input", refused.message ?? "The inbox could not open this stream");
}

inboxRoutes.get("/stream", (c) => openStream(c, "stream"));

inboxRoutes.get("/ws", (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new HttpError("invalid_input", "Expected a WebSocket upgrade request");
  }
  return openStream(c, "ws");
});
