// The person's own inbox stream lists their chat accounts: in its hello, and again the moment an
// account links or unlinks (before the chat is told), so a link made from anywhere cannot stay
// unseen; an inbox link's socket is told nothing of them.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../../src/protocol";
import { Device, ORIGIN } from "../../helpers/session-harness";
import { Person } from "../inbox/inbox-fixtures";
import { callsTo, link } from "./telegram/telegram-fixtures";

type Frame = { type?: string; view?: { chatLinks?: unknown }; links?: unknown };

/** Opens an inbox WebSocket with `headers` and a ticket for them; its frames are recorded. */
async function inboxSocket(headers: Record<string, string>) {
  const asked = await exports.default.fetch(`${ORIGIN}/api/inbox/ws-ticket`, { method: "POST", headers });
  expect(asked.status).toBe(201);
  const { ticket } = (await asked.json()) as { ticket: string };
  const response = await exports.default.fetch(`${ORIGIN}/api/inbox/ws?ticket=${ticket}`, {
    headers: { ...headers, upgrade: "websocket" },
  });
  const socket = response.webSocket;
  if (!socket) throw new Error(`no websocket: ${response.status} ${await response.text()}`);
  socket.accept();
  const device = new Device(socket);
  const frames = device.frames as Frame[];
  await device.until(() => frames.length > 0, "hello");
  const until = (what: string, predicate: () => boolean) => device.until(predicate, what);
  return { socket, frames, until };
}

describe("the inbox stream and chat accounts", { timeout: 60_000 }, () => {
  it("lists a new link the moment it is made, before the chat names the person it joined, and its unlink too", async () => {
    const wes = new Person("wes.stream@example.com");
    const user = { id: 9901, first_name: "Wes" };
    const own = await inboxSocket(await wes.headers());
    expect(own.frames[0]).toMatchObject({ type: "hello", view: { chatLinks: [] } });
    const minted = await wes.api("POST", "/api/inbox/links", { body: { role: "view" } });
    const viewLink = (await minted.json()) as MintedInboxLink;
    const other = await inboxSocket({ authorization: `Bearer ${viewLink.token}` });
    expect(other.frames[0]?.view).not.toHaveProperty("chatLinks");

    await link(wes, user);
    // The inbox was told (and listed it) before the bot replied.
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain(
      "Linked to Parley as wes.stream@example.com",
    );
    const linksFrames = () => own.frames.filter((frame) => frame.type === "chat_links");
    await own.until("the link listed", () => linksFrames().length > 0);
    const listed = linksFrames();
    expect(listed).toHaveLength(1);
    const { links } = (await (await wes.api("GET", "/api/channels/links")).json()) as {
      links: { linkId: string }[];
    };
    expect(listed[0]?.links).toEqual([
      { linkId: links[0]?.linkId, platform: "telegram", accountId: String(user.id), name: "Wes" },
    ]);

    expect((await wes.api("DELETE", `/api/channels/links/${links[0]?.linkId}`)).status).toBe(200);
    await own.until("the unlink listed", () => linksFrames().length > 1);
    expect(linksFrames().at(-1)?.links).toEqual([]);
    // The view link's socket heard of neither.
    expect(other.frames.filter((frame) => frame.type === "chat_links")).toEqual([]);
    own.socket.close();
    other.socket.close();
  });
});
