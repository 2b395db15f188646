// The inbox's own event stream, over SSE and a WebSocket: replay exactly what came after the
// cursor, then every change live, as a session's streams do.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InboxEvent } from "../../../src/protocol";
import { Device, ORIGIN, textReply } from "../../helpers/session-harness";
import { SseReader } from "../../helpers/sse-reader";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

function changesOf(reader: SseReader): InboxEvent[] {
  return reader.messages.filter((m) => m.event === "message").map((m) => JSON.parse(m.data) as InboxEvent);
}

async function openCard(person: Person, id: string, text: string) {
  const session = await person.createSession({ script: [ask(id), textReply("Thanks.")] });
  const device = await person.connect(session);
  await device.request({ type: "send_message", text });
  await device.waitForEvent("question_prompt");
  await deliverOutbox(session);
  return { session, device };
}

describe("the inbox stream", () => {
  it("over SSE replays after Last-Event-ID, then sends what changes live", async () => {
    const alice = new Person("alice.sse@example.com");
    const first = await openCard(alice, "toolu_first", "First job");

    const stream = new SseReader(
      await exports.default.fetch(`${ORIGIN}/api/inbox/stream?ticket=${await alice.ticket()}`, {
        headers: await alice.headers(),
      }),
    );
    await stream.until(
      () => changesOf(stream).some((e) => e.change.type === "card_opened"),
      "the first card",
    );
    const hello = JSON.parse(stream.messages[0]?.data ?? "{}");
    expect(hello).toMatchObject({ type: "hello", view: { person: alice.email } });
    expect(hello.view.cards.map((c: { interactionId: string }) => c.interactionId)).toEqual(["toolu_first"]);
    const seen = changesOf(stream);
    const lastSeen = seen[seen.length - 1]?.seq ?? 0;
    expect(stream.messages.at(-1)?.id).toBe(String(lastSeen));

    // Live: a second session opens a card while the stream is open.
    const second = await openCard(alice, "toolu_second", "Second job");
    await stream.until(
      () =>
        changesOf(stream).some(
          (e) => e.change.type === "card_opened" && e.sessionId === second.session.sessionId,
        ),
      "the second card, live",
    );
    await stream.close();

    // A reconnect with Last-Event-ID gets only what came after it.
    const resumed = new SseReader(
      await exports.default.fetch(`${ORIGIN}/api/inbox/stream?ticket=${await alice.ticket()}`, {
        headers: await alice.headers({ "last-event-id": String(lastSeen) }),
      }),
    );
    await resumed.until(
      () => changesOf(resumed).some((e) => e.change.type === "card_opened"),
      "the replay after the cursor",
    );
    const replayed = changesOf(resumed);
    expect(replayed.every((e) => e.seq > lastSeen)).toBe(true);
    expect(replayed.filter((e) => e.change.type === "card_opened").map((e) => e.sessionId)).toEqual([
      second.session.sessionId,
    ]);
    await resumed.close();
    first.device.close();
    second.device.close();
  });

  it("refuses a cursor that is not a seq, naming it", async () => {
    const alice = new Person("alice.cursor@example.com");
    const response = await exports.default.fetch(
      `${ORIGIN}/api/inbox/stream?ticket=${await alice.ticket()}`,
      {
        headers: await alice.headers({ "last-event-id": "yesterday" }),
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/^Last-Event-ID/) },
    });
  });

  it("over a WebSocket sends hello, replays after the cursor, then the live changes", async () => {
    const bob = new Person("bob.ws@example.com");
    const first = await openCard(bob, "toolu_ws_first", "One");
    const cursor = (await bob.inbox()).lastSeq;

    const response = await exports.default.fetch(
      `${ORIGIN}/api/inbox/ws?after=${cursor}&ticket=${await bob.ticket()}`,
      {
        headers: await bob.headers({ upgrade: "websocket" }),
      },
    );
    const socket = response.webSocket;
    if (!socket) throw new Error(`no websocket: ${response.status}`);
    socket.accept();
    // The session harness's device records every frame and wakes on each one.
    const inbox = new Device(socket);
    const frames = inbox.frames as Array<{ type?: string; seq?: number; change?: { type: string } }>;
    const until = (predicate: () => boolean, what: string) => inbox.until(predicate, what);
    await until(() => frames.length > 0, "hello");
    expect(frames[0]).toMatchObject({ type: "hello" });

    // The first card was before the cursor: not replayed. Answering it and a new card arrive live.
    await first.device.request({
      type: "submit_answers",
      toolCallId: "toolu_ws_first",
      answers: { "Which database should the service use?": "Postgres" },
    });
    await first.device.waitForDone();
    await deliverOutbox(first.session);
    await until(() => frames.some((f) => f.change?.type === "card_resolved"), "the resolution, live");
    const changes = frames.slice(1);
    expect(changes.every((f) => (f.seq ?? 0) > cursor)).toBe(true);
    expect(changes.filter((f) => f.change?.type === "card_opened")).toEqual([]);
    socket.close(1000, "done");
    first.device.close();
  });
});
