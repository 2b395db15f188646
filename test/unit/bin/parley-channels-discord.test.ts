// `parley channels discord --register-commands`: what it sends Discord's REST API (a local stand-in).
import { describe, expect, it } from "vitest";
import { PARLEY_COMMAND, readDiscordArgs, setUpDiscord } from "../../../bin/parley-channels-discord";
import { type DiscordCall, serveDiscordApi } from "../../helpers/discord-api";

const ENV = { DISCORD_APPLICATION_ID: "1234567890", DISCORD_BOT_TOKEN: "bot-token" };

describe("parley channels discord", () => {
  it("registers /parley link <code> and points the interactions endpoint at Parley's Discord route", async () => {
    const api = await serveDiscordApi();
    try {
      const read = readDiscordArgs(
        [
          "--register-commands",
          "--interactions-url",
          "https://parley.example.com/",
          "--api-base-url",
          api.url,
        ],
        ENV,
      );
      if (!read.ok) throw new Error(read.message);
      const said = await setUpDiscord(read.options);
      expect(said).toContain("https://parley.example.com/api/channels/discord");
      const calls = (await (await fetch(`${api.url}/control/calls`)).json()) as DiscordCall[];
      expect(calls.map(({ method, path, authorization }) => ({ method, path, authorization }))).toEqual([
        { method: "PUT", path: "/applications/1234567890/commands", authorization: "Bot bot-token" },
        { method: "PATCH", path: "/applications/@me", authorization: "Bot bot-token" },
      ]);
      expect(calls[0]?.body).toEqual([PARLEY_COMMAND]);
      expect(PARLEY_COMMAND.options[0]).toMatchObject({
        name: "link",
        options: [expect.objectContaining({ name: "code", required: true })],
      });
      expect(calls[1]?.body).toEqual({
        interactions_endpoint_url: "https://parley.example.com/api/channels/discord",
      });
    } finally {
      await api.stop();
    }
  });

  it("fails with Discord's own words when it refuses", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: "401: Unauthorized", code: 0 }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const options = {
      applicationId: "1",
      botToken: "wrong",
      parleyUrl: null,
      apiBaseUrl: `http://127.0.0.1:${port}`,
    };
    await expect(setUpDiscord(options)).rejects.toThrow("401: Unauthorized");
    server.close();
  });

  it("refuses to run without --register-commands, an application id or a bot token, or with a plain-http endpoint", () => {
    expect(readDiscordArgs([], ENV)).toMatchObject({
      ok: false,
      message: expect.stringContaining("--register-commands"),
    });
    expect(readDiscordArgs(["--register-commands"], {})).toMatchObject({
      ok: false,
      message: expect.stringContaining("DISCORD_APPLICATION_ID"),
    });
    expect(readDiscordArgs(["--register-commands"], { DISCORD_APPLICATION_ID: "1" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("DISCORD_BOT_TOKEN"),
    });
    expect(
      readDiscordArgs(["--register-commands", "--interactions-url", "http://p.example"], ENV),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining("https://"),
    });
  });
});
