// Messages sent while a turn runs wait in the inbox and run in order; cancel ends a turn at once and
// leaves a transcript the next model call can use.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_QUEUED_MESSAGES } from "../../../src/protocol/limits";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { eventsOf, expectValidTranscript, lastRequest, modelRequests, userTexts } from "./agent-harness";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the inbox", () => {
  it("queues messages sent during a turn and runs them as turns in the order they were sent", async () => {
    const session = await createSession({
      script: [
        textReply("Answering the first message slowly.", { paceMs: 10 }),
        textReply("Second."),
        textReply("Third."),
      ],
    });
    const device = await connect(session);
    const acks = await Promise.all(
      ["one", "two", "three"].map((text) => device.request({ type: "send_message", text })),
    );
    expect(acks.map((ack) => ack.ok && (ack.result as { queued: boolean }).queued)).toEqual([
      false,
      true,
      true,
    ]);
    await device.waitForDone(3);

    const messages = eventsOf(device, "user_message");
    expect(messages.map((e) => [e.data.text, e.data.queued])).toEqual([
      ["one", false],
      ["two", true],
      ["three", true],
    ]);
    const started = eventsOf(device, "turn_started");
    expect(started.map((e) => e.data.messageId)).toEqual(messages.map((e) => e.data.messageId));
    // Each turn starts only after the previous one is done.
    const dones = eventsOf(device, "done");
    expect(started[1]?.seq).toBeGreaterThan(dones[0]?.seq ?? Number.POSITIVE_INFINITY);
    expect(started[2]?.seq).toBeGreaterThan(dones[1]?.seq ?? Number.POSITIVE_INFINITY);

    const requests = await modelRequests(session);
    expect(requests.map(userTexts)).toEqual([["one"], ["one", "two"], ["one", "two", "three"]]);
    for (const request of requests) expectValidTranscript(request.messages);
  });
});

describe("a message sent again after a lost ack", () => {
  it("is answered with the first result and posted once, over the socket and over HTTP", async () => {
    const session = await createSession({ script: [textReply("Once."), textReply("Twice.")] });
    const phone = await connect(session, { device: "phone" });
    const frame = JSON.stringify({ type: "send_message", text: "hello", requestId: "tab1-7" });
    phone.sendRaw(frame);
    phone.sendRaw(frame);
    await phone.until(() => phone.acks.length === 2, "two acks");
    const [first, second] = phone.acks;
    expect(first).toMatchObject({ ok: true, requestId: "tab1-7" });
    expect(second).toMatchObject({
      ok: true,
      result: { messageId: (first?.result as { messageId: string } | undefined)?.messageId, duplicate: true },
    });
    await phone.waitForDone();

    const post = () =>
      api("POST", `/api/sessions/${session.sessionId}/messages`, {
        token: session.token,
        body: { text: "from a script" },
        headers: { "idempotency-key": "job-42", "x-device-id": "cron" },
      });
    const [a, b] = [await post(), await post()];
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    const [bodyA, bodyB] = [
      (await a.json()) as { result: { messageId: string } },
      (await b.json()) as { result: { messageId: string } },
    ];
    expect(bodyB.result.messageId).toBe(bodyA.result.messageId);
    await phone.waitForDone(2);
    expect(eventsOf(phone, "user_message").map((e) => e.data.text)).toEqual(["hello", "from a script"]);
    expect(userTexts(await lastRequest(session))).toEqual(["hello", "from a script"]);
  });

  it("counts as a new message when the request id is reused for other text", async () => {
    const session = await createSession({ script: [textReply("One."), textReply("Two.")] });
    const phone = await connect(session, { device: "phone" });
    phone.sendRaw(JSON.stringify({ type: "send_message", text: "before restart", requestId: "r1" }));
    await phone.waitForDone();
    phone.sendRaw(JSON.stringify({ type: "send_message", text: "after restart", requestId: "r1" }));
    await phone.waitForDone(2);
    expect(eventsOf(phone, "user_message").map((e) => e.data.text)).toEqual([
      "before restart",
      "after restart",
    ]);
  });

  it("counts as a new message when another device reuses the same request id", async () => {
    const session = await createSession({ script: [textReply("One."), textReply("Two.")] });
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    phone.sendRaw(JSON.stringify({ type: "send_message", text: "from phone", requestId: "x-1" }));
    laptop.sendRaw(JSON.stringify({ type: "send_message", text: "from laptop", requestId: "x-1" }));
    await phone.waitForDone(2);
    expect(eventsOf(phone, "user_message").map((e) => e.data.text)).toEqual(["from phone", "from laptop"]);
  });
});

describe("a full inbox", () => {
  it("refuses a message beyond the queue limit with queue_full and stores nothing for it", async () => {
    const session = await createSession({ script: [textReply("Thinking", { stallAfterEvents: 3 })] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "first" });
    await device.waitForEvent("text_delta");
    // Over HTTP, and through a second credential: each token may send only so many commands this
    // fast (socket or HTTP alike), and the queue must fill before either allowance runs out.
    const minted = await api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "answer", label: "second sender" },
    });
    const link = (await minted.json()) as { token: string };
    for (let i = 0; i < MAX_QUEUED_MESSAGES; i += 1) {
      const queued = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
        token: i % 2 === 0 ? session.token : link.token,
        body: { text: `queued ${i}` },
      });
      expect(queued.status).toBe(202);
    }
    await device.until(
      () => device.events.filter((e) => e.type === "user_message").length > MAX_QUEUED_MESSAGES,
      "queued messages",
    );
    const before = device.events.length;
    const refused = await device.request({ type: "send_message", text: "one too many" });
    expect(refused).toMatchObject({ ok: false, error: { code: "queue_full" } });
    const response = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
      token: session.token,
      body: { text: "one too many" },
    });
    expect(response.status).toBe(409);
    expect(device.events.length).toBe(before);
    await device.request({ type: "cancel" });
  });
});

describe("cancel", () => {
  it("stops a streaming reply, keeps its partial text, and leaves the session idle for the next message", async () => {
    const session = await createSession({
      script: [
        // message_start, content_block_start and three 4-character deltas, then the call hangs.
        textReply("Partial answer that never finishes", { textChunkSize: 4, stallAfterEvents: 5 }),
        textReply("Fresh start."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "first" });
    await device.waitForEvent("text_delta");
    const ack = await device.request({ type: "cancel" });
    expect(ack.ok).toBe(true);
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("cancelled");
    await device.waitForEvent("session_status", (e) => e.seq > done.seq && e.data.status === "idle");
    const kept = eventsOf(device, "text_delta")
      .map((e) => e.data.text)
      .join("");
    expect(kept).toBe("Partial answ");

    await device.request({ type: "send_message", text: "second" });
    const next = await device.waitForDone(2);
    expect(next.data.stopReason).toBe("end_turn");
    const request = await lastRequest(session);
    expectValidTranscript(request.messages);
    expect(request.messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Partial answ" }],
    });
    expect(userTexts(request)).toEqual(["first", "second"]);
  });

  it("gives a running tool and a tool still waiting to run cancelled results, so the transcript stays paired", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => new Promise<Response>(() => {}));
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([
          { id: "toolu_slow", name: "fetch_url", input: { url: "https://example.com/slow" } },
          { id: "toolu_next", name: "current_time", input: {} },
        ]),
        textReply("Okay, stopped."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "fetch something slow" });
    await device.waitForEvent("tool_call_end");
    await device.request({ type: "cancel" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("cancelled");
    expect(
      eventsOf(device, "tool_result").map((e) => [e.data.toolCallId, e.data.isError, e.data.content]),
    ).toEqual([
      [
        "toolu_slow",
        true,
        "User cancelled the turn while fetch_url was running; it was stopped and its effect is unknown.",
      ],
      ["toolu_next", true, "User cancelled the turn before current_time ran; the tool was not run."],
    ]);

    await device.request({ type: "send_message", text: "never mind" });
    await device.waitForDone(2);
    const request = await lastRequest(session);
    expectValidTranscript(request.messages);
    expect(eventsOf(device, "tool_result")).toHaveLength(2);
  });

  it("stops the running turn for a message sent with interrupt, which then runs as the next turn", async () => {
    const session = await createSession({
      script: [
        textReply("Partial answer that never finishes", { textChunkSize: 4, stallAfterEvents: 5 }),
        textReply("On it."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "first" });
    await device.waitForEvent("text_delta");
    const ack = await device.request({
      type: "send_message",
      text: "stop, do this instead",
      interrupt: true,
    });
    expect(ack.ok).toBe(true);
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("cancelled");
    const next = await device.waitForDone(2);
    expect(next.data.stopReason).toBe("end_turn");
    const request = await lastRequest(session);
    expectValidTranscript(request.messages);
    expect(userTexts(request)).toEqual(["first", "stop, do this instead"]);
  });

  it("answers a cancel with no turn running with a nothing_to_cancel error", async () => {
    const session = await createSession({ script: [] });
    const device = await connect(session);
    const ack = await device.request({ type: "cancel" });
    expect(ack.ok).toBe(false);
    expect(ack.error?.code).toBe("nothing_to_cancel");
    expect(device.events).toHaveLength(0);
  });
});
