// A stand-in for the Telegram Bot API at the network's edge of the channel tests (Miniflare's
// outbound fetch lands here, in Node): it answers the methods the adapter calls, records every call,
// and fails the next calls of a method when a test asks, through its control host.

export const TELEGRAM_HOST = "telegram.parley.test";
export const TELEGRAM_CONTROL_HOST = "telegram.control";

export const TELEGRAM_BINDINGS = {
  TELEGRAM_BOT_TOKEN: "123456:test-bot-token",
  TELEGRAM_WEBHOOK_SECRET_TOKEN: "test-telegram-secret-token-0123",
  TELEGRAM_API_BASE_URL: `http://${TELEGRAM_HOST}`,
  TELEGRAM_BOT_USERNAME: "parley_test_bot",
};

export interface TelegramCall {
  method: string;
  body: Record<string, unknown>;
  /** What the stand-in answered. */
  status: number;
  /** The `result` it answered with, when it succeeded (a sent message's id). */
  result?: unknown;
}

const calls: TelegramCall[] = [];
const failures = new Map<string, number[]>();
let nextMessageId = 1000;

/** Miniflare's `outboundService` for the Telegram host and its control host; `/fail` fails a chat's next calls of a method. */
export async function telegramApi(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname === TELEGRAM_CONTROL_HOST) return control(url);
  // Served on a loopback port (the browser tests), the control routes sit under /control.
  if (url.pathname.startsWith("/control/"))
    return control(new URL(url.pathname.slice("/control".length) + url.search, url));
  const method = url.pathname.split("/").pop() ?? "";
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  const failing = failures.get(`${method} ${body.chat_id}`)?.shift();
  if (failing) {
    calls.push({ method, body, status: failing });
    return Response.json(
      { ok: false, error_code: failing, description: "stand-in failure" },
      { status: failing },
    );
  }
  const result = resultOf(method, body);
  calls.push({ method, body, status: 200, result });
  return Response.json({ ok: true, result });
}

function resultOf(method: string, body: Record<string, unknown>): unknown {
  const chat = { id: Number(body.chat_id), type: Number(body.chat_id) > 0 ? "private" : "group" };
  switch (method) {
    case "getMe":
      return { id: 123456, is_bot: true, first_name: "Parley", username: "parley_test_bot" };
    case "sendMessage":
      nextMessageId += 1;
      return { message_id: nextMessageId, date: 1, chat, text: body.text };
    case "editMessageText":
      return { message_id: Number(body.message_id), date: 1, chat, text: body.text };
    default:
      return true;
  }
}

function control(url: URL): Response {
  if (url.pathname === "/calls") return Response.json(calls);
  if (url.pathname === "/fail") {
    // Per chat, so tests running side by side never take each other's failures.
    const key = `${url.searchParams.get("method")} ${url.searchParams.get("chat")}`;
    const statuses = (url.searchParams.get("statuses") ?? "500").split(",").map(Number);
    failures.set(key, [...(failures.get(key) ?? []), ...statuses]);
    return new Response(null, { status: 204 });
  }
  return new Response("unknown control route", { status: 404 });
}

/** Serves the stand-in on a loopback port (for `wrangler dev`); answers its URL and a stop function. */
export async function serveTelegramApi(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method,
      headers: { "content-type": "application/json" },
      ...(incoming.method === "POST" ? { body } : {}),
    });
    const response = await telegramApi(request);
    outgoing.writeHead(response.status, { "content-type": "application/json" });
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
