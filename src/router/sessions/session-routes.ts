// Routes for one session: everything under /api/sessions/:id, after the capability token was
// checked. Each route turns its body into the same command a WebSocket would send.
import { Hono } from "hono";
import * as z from "zod";
import { unwrap } from "../../objects/outcome";
import { ACCESS_HEADER, WebSocketQuery } from "../../objects/socket-access";
import { TICKET_HEADER, ticketHeader } from "../../objects/spent-tickets";
import { lazySchema } from "../../protocol/lazy-schema";
import { PushSubscriptionBody } from "../../protocol/reach/notify";
import { DeviceId } from "../../protocol/session/session";
import {
  ApproveCommand,
  DecideBatchCommand,
  DenyCommand,
  EndAgentCommand,
  ExtendDeadlineCommand,
  RespondBody,
  SendMessageCommand,
  type SessionCommand,
  SetDeadlinePoliciesCommand,
  SubmitAnswersCommand,
} from "../../protocol/wire/commands";
import { describeZodError, ErrorBody } from "../../protocol/wire/errors";
import { EventsQuery, PatchSessionBody } from "../../protocol/wire/http";
import { APPROVE, DENY, SEED_COMMANDS, SUBMIT_ANSWERS } from "../../protocol/wire/seed-names";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { requireCommand, requireOwner } from "../guards/access-guard";
import { refuseUnknownPushService } from "../guards/push-endpoint-guard";
import { HttpError } from "../http-error";
import { readJsonBody } from "../read-json-body";

const bodyOf = <T extends z.ZodObject>(command: T) => command.omit({ type: true, requestId: true });

export const sessionRoutes = new Hono<AppEnv>();

function stub(c: { env: Env; get(key: "sessionId"): string }) {
  return sessionStub(c.env, c.get("sessionId"));
}

function idempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (header.length < 1 || header.length > 64) {
    throw new HttpError("invalid_input", "Idempotency-Key must be 1 to 64 characters");
  }
  return header;
}

function deviceOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const parsed = DeviceId.safeParse(header);
  if (!parsed.success) throw new HttpError("invalid_input", `X-Device-Id: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

sessionRoutes.get("/", async (c) => c.json(unwrap(await stub(c).snapshot(c.get("access")))));

sessionRoutes.delete("/", async (c) => {
  requireOwner(c, "delete the session");
  unwrap(await stub(c).destroy(c.get("access")));
  return c.json({ ok: true });
});

sessionRoutes.get("/export", async (c) => {
  requireOwner(c, "export the session");
  const exported = unwrap(await stub(c).exportSession(c.get("access")));
  c.header("content-disposition", `attachment; filename="parley-${c.get("sessionId")}.json"`);
  return c.json(exported);
});

sessionRoutes.patch("/", async (c) => {
  requireCommand(c, "set_permission_mode");
  const body = await readJsonBody(c, PatchSessionBody);
  const command: SessionCommand = { type: "set_permission_mode", mode: body.permissionMode };
  return c.json({
    ok: true,
    result: unwrap(await stub(c).command(command, deviceOf(c.req.header("x-device-id")), c.get("access"))),
  });
});

sessionRoutes.get("/events", async (c) => {
  const query = EventsQuery.safeParse(c.req.query());
  if (!query.success) throw new HttpError("invalid_input", describeZodError(query.error));
  return c.json(unwrap(await stub(c).eventsPage(query.data.after, query.data.limit, c.get("access"))));
});

sessionRoutes.get("/stats", async (c) => c.json(unwrap(await stub(c).stats(c.get("access")))));

/** Resume cursor of an SSE request: `Last-Event-ID` (sent by a reconnecting EventSource) wins over `?after=`. */
const StreamCursor = lazySchema(() =>
  z.object({
    lastEventId: z
      .string()
      .regex(/^\d{1,15}$/, "Last-Event-ID must be an event seq (a whole number)")
      .optional(),
    after: z
      .string()
      .regex(/^\d{1,15}$/, "after must be an event seq (a whole number)")
      .optional(),
    device: DeviceId.optional(),
  }),
);

sessionRoutes.get("/events/stream", async (c) => {
  const cursor = StreamCursor.safeParse({
    lastEventId: c.req.header("last-event-id"),
    after: c.req.query("after"),
    device: c.req.query("device"),
  });
  if (!cursor.success) throw new HttpError("invalid_input", describeZodError(cursor.error));
  const url = new URL(c.req.url);
  const forwarded = new URL(url.pathname, url.origin);
  forwarded.searchParams.set("after", cursor.data.lastEventId ?? cursor.data.after ?? "0");
  if (cursor.data.device) forwarded.searchParams.set("device", cursor.data.device);
  const response = await stub(c).fetch(
    new Request(forwarded, {
      signal: c.req.raw.signal,
      headers: { [ACCESS_HEADER]: JSON.stringify(c.get("access")), ...ticketHeader(c.get("ticket")) },
    }),
  );
  // Re-wrapped so later middleware may add headers (a fetched response's headers are immutable).
  if (response.ok) return new Response(response.body, response);
  throw HttpError.from(ErrorBody.parse(await response.json()));
});

sessionRoutes.post("/push-subscriptions", async (c) => {
  if (!c.get("config").push) {
    throw new HttpError("not_found", "This server has no VAPID keys, so it does not offer Web Push");
  }
  const body = await readJsonBody(c, PushSubscriptionBody);
  refuseUnknownPushService(c, body.subscription.endpoint, {
    sessionId: c.get("sessionId"),
    linkId: c.get("access").linkId,
  });
  // The device's notifications link with the token it presented, never the owner's.
  const sessionUrl = `${new URL(c.req.url).origin}/#/s/${c.get("sessionId")}?token=${c.get("token")}`;
  const outcome = await stub(c).subscribePush(body, c.get("access"), sessionUrl);
  return c.json({ ok: true, result: unwrap(outcome) }, 201);
});

sessionRoutes.delete("/push-subscriptions/:deviceId", async (c) => {
  const deviceId = DeviceId.safeParse(c.req.param("deviceId"));
  if (!deviceId.success)
    throw new HttpError("invalid_input", `device id: ${describeZodError(deviceId.error)}`);
  return c.json({ ok: true, result: unwrap(await stub(c).unsubscribePush(deviceId.data, c.get("access"))) });
});

sessionRoutes.get("/deliveries", async (c) => {
  requireOwner(c, "read the delivery log");
  return c.json(unwrap(await stub(c).deliveries(c.get("access"))));
});

sessionRoutes.get("/ws", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new HttpError("invalid_input", "Expected a WebSocket upgrade request");
  }
  const query = WebSocketQuery.safeParse(c.req.query());
  if (!query.success) throw new HttpError("invalid_input", describeZodError(query.error));
  // The object trusts this header because only the Worker can reach it; a client's copy is replaced.
  const forwarded = new Request(c.req.raw);
  forwarded.headers.set(ACCESS_HEADER, JSON.stringify(c.get("access")));
  forwarded.headers.delete(TICKET_HEADER);
  for (const [name, value] of Object.entries(ticketHeader(c.get("ticket"))))
    forwarded.headers.set(name, value);
  const response = await stub(c).fetch(forwarded);
  // Re-wrapped so later middleware may add headers (a fetched response's headers are immutable).
  if (response.status === 101) return new Response(null, { status: 101, webSocket: response.webSocket });
  throw HttpError.from(ErrorBody.parse(await response.json()));
});

/** POST routes that are exactly one command each. */
const COMMAND_ROUTES: Array<[string, z.ZodObject, SessionCommand["type"]]> = [
  ["/messages", lazySchema(() => bodyOf(SendMessageCommand)), "send_message"],
  // The seed kinds' older answer routes (seed-names.ts).
  [SEED_COMMANDS[SUBMIT_ANSWERS].route, lazySchema(() => bodyOf(SubmitAnswersCommand)), SUBMIT_ANSWERS],
  [SEED_COMMANDS[APPROVE].route, lazySchema(() => bodyOf(ApproveCommand)), APPROVE],
  [SEED_COMMANDS[DENY].route, lazySchema(() => bodyOf(DenyCommand)), DENY],
  ["/respond", RespondBody, "respond"],
  ["/decide-batch", lazySchema(() => bodyOf(DecideBatchCommand)), "decide_batch"],
  ["/cancel", lazySchema(() => z.strictObject({})), "cancel"],
  ["/end-agent", lazySchema(() => bodyOf(EndAgentCommand)), "end_agent"],
  ["/retry-now", lazySchema(() => z.strictObject({})), "retry_now"],
  ["/extend-deadline", lazySchema(() => bodyOf(ExtendDeadlineCommand)), "extend_deadline"],
  ["/deadline-policies", lazySchema(() => bodyOf(SetDeadlinePoliciesCommand)), "set_deadline_policies"],
];

for (const [path, schema, type] of COMMAND_ROUTES) {
  sessionRoutes.post(path, async (c) => {
    requireCommand(c, type);
    const optional = type === "cancel" || type === "end_agent" || type === "retry_now";
    const body = await readJsonBody(c, schema, { optional });
    // An Idempotency-Key makes a retried POST …/messages return the first result, not post twice.
    const requestId = idempotencyKey(c.req.header("idempotency-key"));
    const command = { ...body, type, ...(requestId ? { requestId } : {}) } as SessionCommand;
    const result = unwrap(
      await stub(c).command(command, deviceOf(c.req.header("x-device-id")), c.get("access")),
    );
    return c.json({ ok: true, result }, type === "send_message" ? 202 : 200);
  });
}
