// A stand-in for Discord's REST API at the network's edge of the channel tests (Miniflare's outbound
// fetch lands here, in Node): it records every call, keeps Discord's nonce promise (a message posted
// again with a nonce it has seen answers the first one), and fails the next calls to a channel when
// a test asks, through its control host — before the message is made, or after (a lost response).

export const DISCORD_HOST = "discord.parley.test";
export const DISCORD_CONTROL_HOST = "discord.control";
export const DISCORD_APPLICATION_ID = "1100000000000000001";

/**
 * The application's configuration with a fresh Ed25519 key pair: the public key as Discord shows it
 * (hex), and the private key, which only the tests hold, to sign interactions as Discord does.
 */
export async function discordBindings(apiBaseUrl = `http://${DISCORD_HOST}`) {
  const { generateKeyPairSync } = await import("node:crypto");
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const x = publicKey.export({ format: "jwk" }).x as string;
  return {
    DISCORD_APPLICATION_ID,
    DISCORD_PUBLIC_KEY: Buffer.from(x, "base64url").toString("hex"),
    DISCORD_BOT_TOKEN: "test-discord-bot-token",
    DISCORD_API_BASE_URL: apiBaseUrl,
    /** Not the Worker's: the tests read it from their environment to sign with. */
    DISCORD_TEST_SIGNING_KEY: JSON.stringify(privateKey.export({ format: "jwk" })),
  };
}

export interface DiscordCall {
  method: string;
  path: string;
  /** The channel a call names, when it names one. */
  channelId: string | null;
  body: Record<string, unknown>;
  authorization: string | null;
  /** What the stand-in answered. */
  status: number;
}

const calls: DiscordCall[] = [];
/** Per channel: statuses to answer next, each before the message is made or after ("lost"). */
const failures = new Map<string, { status: number; lost: boolean }[]>();
const byNonce = new Map<string, { id: string; channel_id: string }>();
let nextMessageId = 1_300_000_000_000_000_000n;

/** Miniflare's `outboundService` for the Discord host and its control host. */
export async function discordApi(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname === DISCORD_CONTROL_HOST) return control(url);
  if (url.pathname.startsWith("/control/"))
    return control(new URL(url.pathname.slice("/control".length) + url.search, url));
  const path = url.pathname.replace(/^\/api\/v10/, "");
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  const channelId = /^\/channels\/(\d+)/.exec(path)?.[1] ?? null;
  const call = {
    method: request.method,
    path,
    channelId,
    body,
    authorization: request.headers.get("authorization"),
  };
  const failing = channelId ? failures.get(channelId)?.shift() : undefined;
  if (failing && !failing.lost) {
    calls.push({ ...call, status: failing.status });
    return Response.json({ message: "stand-in failure", code: 0 }, { status: failing.status });
  }
  const result = answer(request.method, path, channelId, body);
  calls.push({ ...call, status: failing ? failing.status : 200 });
  if (failing)
    return Response.json({ message: "stand-in lost response", code: 0 }, { status: failing.status });
  return Response.json(result);
}

function answer(
  method: string,
  path: string,
  channelId: string | null,
  body: Record<string, unknown>,
): unknown {
  if (method === "POST" && /^\/channels\/\d+\/messages$/.test(path)) {
    const nonce = typeof body.nonce === "string" ? body.nonce : null;
    const seen = nonce && body.enforce_nonce === true ? byNonce.get(nonce) : undefined;
    if (seen) return seen;
    nextMessageId += 1n;
    const message = { id: String(nextMessageId), channel_id: channelId, content: body.content };
    if (nonce) byNonce.set(nonce, { id: message.id, channel_id: channelId as string });
    return message;
  }
  if (method === "PATCH") return { id: path.split("/").pop(), channel_id: channelId, content: body.content };
  if (method === "PUT") return body;
  return {};
}

function control(url: URL): Response {
  if (url.pathname === "/calls") return Response.json(calls);
  if (url.pathname === "/fail") {
    // Per channel, so tests running side by side never take each other's failures.
    const channel = url.searchParams.get("channel") ?? "";
    const lost = url.searchParams.get("lost") === "1";
    const statuses = (url.searchParams.get("statuses") ?? "500").split(",").map((status) => ({
      status: Number(status),
      lost,
    }));
    failures.set(channel, [...(failures.get(channel) ?? []), ...statuses]);
    return new Response(null, { status: 204 });
  }
  return new Response("unknown control route", { status: 404 });
}

/** Serves the stand-in on a loopback port (for `wrangler dev` and the CLI); answers its URL and a stop function. */
export async function serveDiscordApi(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method,
      headers: {
        "content-type": "application/json",
        ...(incoming.headers.authorization ? { authorization: incoming.headers.authorization } : {}),
      },
      ...(incoming.method !== "GET" ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await discordApi(request);
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
