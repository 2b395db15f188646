// The external API (docs/external-agents.md#external-agents) under /api/sessions/:id: an agent opens, reads (with a long-poll
// wait) and withdraws cards, posts progress, and reads (with the same wait) and acknowledges the
// person's messages. Each write is the socket command of the same name.
// `/mcp` serves the same as Claude Code's permission-prompt tool, for agents with no local bridge.
import { Hono } from "hono";
import { checked, unwrap } from "../../objects/outcome";
import type { Access } from "../../protocol/access/access";
import {
  AgentMessagesQuery,
  MessageDelivered,
  MessageDeliveredBody,
  MessageId,
} from "../../protocol/external/agent-messages";
import {
  OpenedInteraction,
  OpenInteractionBody,
  PostProgressBody,
  WaitQuery,
} from "../../protocol/external/external";
import { InteractionId } from "../../protocol/session/session";
import { describeZodError } from "../../protocol/wire/errors";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { requireCommand } from "../guards/access-guard";
import { HttpError } from "../http-error";
import { readCappedBody, readJsonBody } from "../read-json-body";
import type { RemoteSession } from "./mcp-remote-ask";

export const externalRoutes = new Hono<AppEnv>();

/** How much longer than the object the Worker waits before it reads the card itself. */
const WAIT_GRACE_MS = 250;

function interactionIdOf(raw: string): string {
  const parsed = InteractionId.safeParse(raw);
  if (!parsed.success) throw new HttpError("unknown_interaction", `No interaction with id "${raw}"`);
  return parsed.data;
}

externalRoutes.post("/interactions", async (c) => {
  requireCommand(c, "open_interaction");
  const body = await readJsonBody(c, OpenInteractionBody);
  const stub = sessionStub(c.env, c.get("sessionId"));
  const opened = unwrap(
    checked(
      OpenedInteraction,
      await stub.command({ type: "open_interaction", ...body }, null, c.get("access")),
    ),
  );
  return c.json(opened, opened.created ? 201 : 200);
});

externalRoutes.get("/interactions/:interactionId", async (c) => {
  const id = interactionIdOf(c.req.param("interactionId"));
  const query = WaitQuery.safeParse(c.req.query());
  if (!query.success) throw new HttpError("invalid_input", describeZodError(query.error));
  const waitMs = Math.round((query.data.wait ?? 0) * 1000);
  const stub = sessionStub(c.env, c.get("sessionId"));
  if (waitMs === 0) return c.json(unwrap(await stub.externalInteraction(id, 0, c.get("access"))));
  const waited = await withinTime(waitMs, stub.externalInteraction(id, waitMs, c.get("access")));
  if (waited) return c.json(unwrap(waited));
  const fresh = sessionStub(c.env, c.get("sessionId"));
  return c.json(unwrap(await fresh.externalInteraction(id, 0, c.get("access"))));
});

/**
 * The object holds a long-poll's wait; the Worker holds its time limit, so a waiter lost with the
 * object (a restart, a deploy) still ends on time: null then, and the caller reads without waiting.
 */
async function withinTime<T>(waitMs: number, waiting: Promise<T>): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs + WAIT_GRACE_MS);
  });
  const waited = await Promise.race([waiting.catch(() => null), timeUp]);
  clearTimeout(timer);
  return waited;
}

// The person's messages, as the agent's bridge reads them: the same long-poll as a card's.
externalRoutes.get("/messages", async (c) => {
  requireCommand(c, "mark_delivered");
  const query = AgentMessagesQuery.safeParse(c.req.query());
  if (!query.success) throw new HttpError("invalid_input", describeZodError(query.error));
  const waitMs = Math.round((query.data.wait ?? 0) * 1000);
  const read = { after: query.data.after, waitMs };
  const stub = sessionStub(c.env, c.get("sessionId"));
  const waited = waitMs === 0 ? null : await withinTime(waitMs, stub.agentMessages(read, c.get("access")));
  if (waited) return c.json(unwrap(waited));
  const fresh = sessionStub(c.env, c.get("sessionId"));
  return c.json(unwrap(await fresh.agentMessages({ ...read, waitMs: 0 }, c.get("access"))));
});

externalRoutes.post("/messages/:messageId/delivered", async (c) => {
  requireCommand(c, "mark_delivered");
  const messageId = MessageId.safeParse(c.req.param("messageId"));
  if (!messageId.success)
    throw new HttpError("unknown_message", `No message with id "${c.req.param("messageId")}"`);
  const body = await readJsonBody(c, MessageDeliveredBody);
  const command = { type: "mark_delivered", messageId: messageId.data, bridge: body.bridge } as const;
  const stub = sessionStub(c.env, c.get("sessionId"));
  return c.json(unwrap(checked(MessageDelivered, await stub.command(command, null, c.get("access")))));
});

externalRoutes.delete("/interactions/:interactionId", async (c) => {
  requireCommand(c, "withdraw_interaction");
  const interactionId = interactionIdOf(c.req.param("interactionId"));
  const stub = sessionStub(c.env, c.get("sessionId"));
  return c.json(
    unwrap(await stub.command({ type: "withdraw_interaction", interactionId }, null, c.get("access"))),
  );
});

externalRoutes.post("/progress", async (c) => {
  requireCommand(c, "post_progress");
  const body = await readJsonBody(c, PostProgressBody);
  const stub = sessionStub(c.env, c.get("sessionId"));
  return c.json(unwrap(await stub.command({ type: "post_progress", ...body }, null, c.get("access"))));
});

// INVARIANT: the endpoint's module, loaded once per isolate on the route's first use.
let mcpEndpoint: Promise<typeof import("./mcp-endpoint")> | null = null;

/** The session as the MCP endpoint reaches it: a fresh stub for each call, since a failed one may be broken. */
function remoteSession(env: Env, sessionId: string, access: Access): RemoteSession {
  return {
    open: async (body) =>
      checked(
        OpenedInteraction,
        await sessionStub(env, sessionId).command({ type: "open_interaction", ...body }, null, access),
      ),
    read: (interactionId, waitMs) =>
      sessionStub(env, sessionId).externalInteraction(interactionId, waitMs, access),
  };
}

externalRoutes.all("/mcp", async (c) => {
  requireCommand(c, "open_interaction");
  // The body is read (capped) before the SDK sees it: the SDK would buffer any size it is sent.
  const request = c.req.raw.body
    ? new Request(c.req.raw, { body: await readCappedBody(c.req.raw) })
    : c.req.raw;
  mcpEndpoint ??= import("./mcp-endpoint");
  const { serveMcp } = await mcpEndpoint;
  return serveMcp(request, remoteSession(c.env, c.get("sessionId"), c.get("access")));
});
