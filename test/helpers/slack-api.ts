// A stand-in for Slack's Web API at the network's edge of the channel tests (Miniflare's outbound
// fetch lands here, in Node): it answers the methods the Chat SDK's Slack adapter calls, records
// every call, and fails a channel's next calls of a method when a test asks, through its control host.
// It also signs requests exactly as Slack signs them, for the tests to send to the webhook.
import { createHmac } from "node:crypto";

export const SLACK_HOST = "slack.parley.test";
export const SLACK_CONTROL_HOST = "slack.control";

export const SLACK_BINDINGS = {
  SLACK_BOT_TOKEN: "xoxb-test-slack-bot-token",
  SLACK_SIGNING_SECRET: "test-slack-signing-secret-0123456789",
  SLACK_API_BASE_URL: `http://${SLACK_HOST}/api/`,
};

export interface SlackCall {
  method: string;
  /** The call's fields, with `blocks` (and other JSON fields) parsed. */
  body: Record<string, unknown>;
  /** What the stand-in answered: its status and, on success, its result. */
  status: number;
  result?: Record<string, unknown>;
}

const calls: SlackCall[] = [];
const failures = new Map<string, number[]>();
/** Display names by user id (`/user?id=…&name=…`); any other user is named by its id. */
const names = new Map<string, string>();
let nextTs = 1_700_000_000;

/** The DM channel the stand-in opens for a user (Slack's DM ids start with D). */
export function dmOf(userId: string): string {
  return `D${userId}`;
}

/** `X-Slack-Signature` for `body` at `timestamp` (seconds), as Slack computes it. */
export function slackSignature(
  body: string,
  timestamp: number,
  secret = SLACK_BINDINGS.SLACK_SIGNING_SECRET,
) {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

/** The headers Slack sends with `body`, signed now (or at `timestamp`). */
export function slackHeaders(body: string, contentType: string, timestamp = Math.floor(Date.now() / 1000)) {
  return {
    "content-type": contentType,
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": slackSignature(body, timestamp),
  };
}

/** Miniflare's `outboundService` for the Slack host and its control host. */
export async function slackApi(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname === SLACK_CONTROL_HOST) return control(url);
  // Served on a loopback port (the browser tests), the control routes sit under /control.
  if (url.pathname.startsWith("/control/"))
    return control(new URL(url.pathname.slice("/control".length) + url.search, url));
  const method = url.pathname.split("/").pop() ?? "";
  const body = parseBody(await request.text(), request.headers.get("content-type") ?? "");
  const key = `${method} ${body.channel ?? body.users ?? ""}`;
  const failing = failures.get(key)?.shift();
  if (failing) {
    calls.push({ method, body, status: failing });
    return new Response("stand-in failure", { status: failing });
  }
  const result = resultOf(method, body);
  calls.push({ method, body, status: 200, result });
  return Response.json({ ok: true, ...result });
}

function parseBody(text: string, contentType: string): Record<string, unknown> {
  if (contentType.includes("json")) return JSON.parse(text || "{}");
  const fields: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    fields[name] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return fields;
}

function resultOf(method: string, body: Record<string, unknown>): Record<string, unknown> {
  switch (method) {
    case "auth.test":
      return { user_id: "UPARLEYBOT", user: "parley", bot_id: "BPARLEY", team_id: "TPARLEY" };
    case "users.info": {
      const id = String(body.user);
      const name = names.get(id) ?? id;
      return { user: { id, name, real_name: name, profile: { display_name: name, real_name: name } } };
    }
    case "conversations.open":
      return { channel: { id: dmOf(String(body.users)) } };
    case "chat.postMessage":
      nextTs += 1;
      return { channel: body.channel, ts: `${nextTs}.000100`, message: { text: body.text } };
    case "chat.update":
      return { channel: body.channel, ts: body.ts, text: body.text };
    case "chat.postEphemeral":
      nextTs += 1;
      return { message_ts: `${nextTs}.000200` };
    case "views.open":
      return { view: { id: `V${nextTs}` } };
    default:
      return {};
  }
}

function control(url: URL): Response {
  if (url.pathname === "/calls") return Response.json(calls);
  if (url.pathname === "/user") {
    names.set(url.searchParams.get("id") ?? "", url.searchParams.get("name") ?? "");
    return new Response(null, { status: 204 });
  }
  if (url.pathname === "/fail") {
    // Per channel, so tests running side by side never take each other's failures.
    const key = `${url.searchParams.get("method")} ${url.searchParams.get("channel")}`;
    const statuses = (url.searchParams.get("statuses") ?? "500").split(",").map(Number);
    failures.set(key, [...(failures.get(key) ?? []), ...statuses]);
    return new Response(null, { status: 204 });
  }
  return new Response("unknown control route", { status: 404 });
}

/** Serves the stand-in on a loopback port (for `wrangler dev`); answers its URL and a stop function. */
export async function serveSlackApi(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method,
      headers: { "content-type": incoming.headers["content-type"] ?? "application/x-www-form-urlencoded" },
      ...(incoming.method === "POST" ? { body } : {}),
    });
    const response = await slackApi(request);
    outgoing.writeHead(response.status, {
      "content-type": response.headers.get("content-type") ?? "text/plain",
    });
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
