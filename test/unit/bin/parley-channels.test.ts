// `parley channels telegram --set-webhook`: what it sends the Bot API (a local stand-in here).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { readTelegramArgs, setTelegramWebhook } from "../../../bin/parley-channels";

async function standIn(answer: { status: number; body: unknown }) {
  const seen: { url: string; body: unknown }[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => {
      seen.push({ url: request.url ?? "", body: JSON.parse(text) });
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

describe("parley channels telegram", () => {
  it("sets the webhook to Parley's Telegram route with the secret token and only the updates Parley reads", async () => {
    const api = await standIn({
      status: 200,
      body: { ok: true, result: true, description: "Webhook was set" },
    });
    const read = readTelegramArgs(
      ["--set-webhook", "https://parley.example.com/", "--api-base-url", api.url],
      { TELEGRAM_BOT_TOKEN: "1:abc", TELEGRAM_WEBHOOK_SECRET_TOKEN: "s".repeat(32) },
    );
    if (!read.ok) throw new Error(read.message);
    const said = await setTelegramWebhook(read.options);
    api.close();
    expect(said).toContain("https://parley.example.com/api/channels/telegram");
    expect(api.seen).toEqual([
      {
        url: "/bot1:abc/setWebhook",
        body: {
          url: "https://parley.example.com/api/channels/telegram",
          secret_token: "s".repeat(32),
          allowed_updates: ["message", "callback_query"],
        },
      },
    ]);
  });

  it("fails with Telegram's own words when it refuses", async () => {
    const api = await standIn({ status: 400, body: { ok: false, description: "Bad Request: bad webhook" } });
    const options = {
      parleyUrl: "https://p.example",
      botToken: "1:abc",
      secretToken: "x".repeat(16),
      apiBaseUrl: api.url,
    };
    await expect(setTelegramWebhook(options)).rejects.toThrow("Bad Request: bad webhook");
    api.close();
  });

  it("refuses to run without a URL, a bot token or a secret token, naming what is missing", () => {
    expect(readTelegramArgs([], {})).toMatchObject({
      ok: false,
      message: expect.stringContaining("--set-webhook"),
    });
    expect(readTelegramArgs(["--set-webhook", "https://p.example"], {})).toMatchObject({
      ok: false,
      message: expect.stringContaining("TELEGRAM_BOT_TOKEN"),
    });
    expect(readTelegramArgs(["--set-webhook", "https://p.example", "--bot-token", "1:a"], {})).toMatchObject({
      ok: false,
      message: expect.stringContaining("TELEGRAM_WEBHOOK_SECRET_TOKEN"),
    });
  });
});
