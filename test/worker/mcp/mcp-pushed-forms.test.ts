// Protocol 2025-11-25 elicitation: server-everything pushes `elicitation/create` inside the open
// `tools/call`; the form opens on every device and the answer goes back over the open call. Losing
// the instance loses the call, and the session says so.
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../helpers/run-in-object";
import { connect, textReply, toolReply } from "../../helpers/session-harness";
import { expectValidTranscript } from "../../helpers/valid-transcript";
import {
  eventsOf,
  lastMessage,
  modelRequests,
  stubOf,
  toolResultsOf,
} from "../interactions/interaction-fixtures";
import { control, mcpSession, respond } from "./mcp-fixtures";

const TRIGGER = "mcp__everything__trigger-elicitation-request";

function triggerSession(id: string, extra: Record<string, unknown> = {}, server = "everything") {
  const name = TRIGGER.replace("everything", server);
  return mcpSession([server], [toolReply([{ name, id, input: {} }]), textReply("Thanks.")], {
    permissionMode: "bypassPermissions",
    ...extra,
  });
}

/** Loses the instance holding the call: eviction would wait for it, a crash or a deploy does not. */
async function loseInstance(session: Awaited<ReturnType<typeof triggerSession>>["session"]) {
  await runInDurableObject(stubOf(session), (_instance, state) => state.abort("instance lost")).catch(
    () => undefined,
  );
}

/** Every kind of field server-everything asks for, filled in. */
const WHOLE_FORM = {
  name: "Ada Lovelace",
  check: true,
  firstLine: "It was a dark and stormy night.",
  email: "ada@example.com",
  homepage: "https://example.com/ada",
  birthdate: "1815-12-10",
  integer: 7,
  number: 2.5,
  untitledSingleSelectEnum: "Phoebe",
  untitledMultipleSelectEnum: ["Piano", "Violin"],
  titledSingleSelectEnum: "hero-3",
  titledMultipleSelectEnum: ["fish-1", "fish-3"],
  legacyTitledEnum: "pet-2",
};

describe("a form an MCP server pushes inside an open call", () => {
  it("opens on every device and a second device's answer — every field type — goes back over the call", async () => {
    const { session, device } = await triggerSession("toolu_push_all");
    const phone = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "ask me" });
    const prompt = await phone.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    expect(prompt.data).toMatchObject({
      toolCallId: "toolu_push_all",
      interactionId: "toolu_push_all-pushed-1",
    });
    expect(
      Object.keys(
        (prompt.data.request as { requestedSchema: { properties: object } }).requestedSchema.properties,
      ),
    ).toEqual(Object.keys(WHOLE_FORM));
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form");

    const answered = await respond(
      session,
      "toolu_push_all-pushed-1",
      { action: "accept", content: WHOLE_FORM },
      "phone",
    );
    expect(answered.status).toBe(200);
    await device.waitForDone(1, 15_000);
    const result = eventsOf(device, "tool_result").at(-1)?.data;
    expect(result?.isError).toBe(false);
    expect(result?.content).toContain("✅ User provided the requested information!");
    expect(result?.content).toContain("- Name: Ada Lovelace");
    expect(result?.content).toContain("- Email: ada@example.com");
    const raw = JSON.parse(result?.content.split("Raw result: ")[1] ?? "{}");
    expect(raw).toEqual({ action: "accept", content: WHOLE_FORM });
    expect(eventsOf(device, "interaction_resolved").at(-1)?.data).toMatchObject({
      resolvedBy: "phone",
      outcome: "answered",
    });
    device.close();
    phone.close();
  });

  it("refuses an answer that does not fit the form, and the call stays open for a good one", async () => {
    const { session, device } = await triggerSession("toolu_push_bad");
    await device.request({ type: "send_message", text: "ask me" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    const bad = await respond(
      session,
      "toolu_push_bad-pushed-1",
      { action: "accept", content: { ...WHOLE_FORM, email: "not an email", integer: 500 } },
      "phone",
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/email/);
    const good = await respond(
      session,
      "toolu_push_bad-pushed-1",
      { action: "accept", content: { name: "Grace" } },
      "laptop",
    );
    expect(good.status).toBe(200);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "tool_result").at(-1)?.data.content).toContain("- Name: Grace");
    device.close();
  });

  it("passes decline on to the server", async () => {
    const { session, device } = await triggerSession("toolu_push_decline");
    await device.request({ type: "send_message", text: "ask me" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    expect(
      (await respond(session, "toolu_push_decline-pushed-1", { action: "decline" }, "phone")).status,
    ).toBe(200);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "tool_result").at(-1)?.data.content).toContain(
      "❌ User declined to provide the requested information.",
    );
    device.close();
  });

  it("answers cancel when nobody fills the form in time", async () => {
    const { device } = await triggerSession("toolu_push_timeout", { interactionTimeoutMs: 300 });
    await device.request({ type: "send_message", text: "ask me" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "interaction_resolved").at(-1)?.data.outcome).toBe("timed_out");
    expect(eventsOf(device, "tool_result").at(-1)?.data.content).toContain(
      "⚠️ User cancelled the elicitation dialog.",
    );
    device.close();
  });

  it("ends the call with an error that says so when the instance holding it is lost", async () => {
    const { session, device } = await triggerSession("toolu_push_lost");
    await device.request({ type: "send_message", text: "ask me" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    device.close();
    await loseInstance(session);

    const phone = await connect(session, { device: "phone" });
    expect(
      (
        await respond(
          session,
          "toolu_push_lost-pushed-1",
          { action: "accept", content: { name: "Late" } },
          "phone",
        )
      ).status,
    ).toBe(200);
    await phone.waitForDone(1, 15_000);
    const result = eventsOf(phone, "tool_result").at(-1)?.data;
    expect(result).toMatchObject({ toolCallId: "toolu_push_lost", isError: true });
    expect(result?.content).toMatch(/was interrupted by a server restart and was not run again/);
    phone.close();
  });

  it("calls a tool the deployment declares idempotent again after the instance is lost, with the answer given", async () => {
    const { session, device } = await triggerSession("toolu_push_retry", {}, "retrying");
    await device.request({ type: "send_message", text: "ask me" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    device.close();
    await loseInstance(session);

    const phone = await connect(session, { device: "phone" });
    const late = { action: "accept", content: { name: "Late but kept" } };
    expect((await respond(session, "toolu_push_retry-pushed-1", late, "phone")).status).toBe(200);
    await phone.waitForDone(1, 15_000);
    const result = eventsOf(phone, "tool_result").at(-1)?.data;
    expect(result).toMatchObject({ toolCallId: "toolu_push_retry", isError: false });
    expect(result?.content).toContain("- Name: Late but kept");
    // The re-run's form is the one already answered: no second card opened.
    expect(eventsOf(phone, "interaction_prompt").filter((e) => e.data.kind === "form")).toHaveLength(1);
    phone.close();
  });

  it("answers the server's held form cancel when the turn is cancelled, and the session goes idle", async () => {
    const { session, device } = await triggerSession("toolu_push_cancel", {}, "recorded");
    await device.request({ type: "send_message", text: "ask me" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    const before = ((await control("GET", "/everything/sent")) as unknown[]).length;
    expect((await device.request({ type: "cancel" })).ok).toBe(true);
    const done = await device.waitForDone(1, 15_000);
    expect(done.data.stopReason).toBe("cancelled");
    await device.waitForEvent("session_status", (e) => e.seq > done.seq && e.data.status === "idle");

    // The server hears `cancel` for its elicitation over the open call, not only a dropped request.
    await expect
      .poll(async () => ((await control("GET", "/everything/sent")) as unknown[]).slice(before), {
        timeout: 5_000,
      })
      .toContainEqual(expect.objectContaining({ result: { action: "cancel" } }));
    expect(eventsOf(device, "interaction_resolved").at(-1)?.data.outcome).toBe("cancelled");

    await device.request({ type: "send_message", text: "never mind" });
    await device.waitForDone(2, 15_000);
    const requests = await modelRequests(session);
    const last = requests.at(-1);
    expectValidTranscript(last?.messages ?? []);
    const [cancelled] = toolResultsOf(lastMessage(last));
    expect(cancelled).toMatchObject({ toolUseId: "toolu_push_cancel", isError: true });
    device.close();
  });
});

describe("a URL an MCP server pushes inside an open call", () => {
  it("opens as a page to visit on every device, and the action goes back over the call", async () => {
    const name = "mcp__everything__trigger-url-elicitation";
    const url = "https://example.com/connect?account=ada";
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([{ name, id: "toolu_push_url", input: { url, message: "Connect your account" } }]),
        textReply("Done."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    const phone = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "connect" });
    const prompt = await phone.waitForEvent("interaction_prompt", (e) => e.data.kind === "url", 15_000);
    expect(prompt.data).toMatchObject({
      toolCallId: "toolu_push_url",
      interactionId: "toolu_push_url-pushed-1",
      request: { mode: "url", url, message: "Connect your account", from: { server: "everything" } },
    });
    expect((await respond(session, "toolu_push_url-pushed-1", { action: "accept" }, "phone")).status).toBe(
      200,
    );
    await device.waitForDone(1, 15_000);
    const result = eventsOf(device, "tool_result").at(-1)?.data;
    expect(result?.isError).toBe(false);
    expect(result?.content).toContain("✅ User completed the URL elicitation flow.");
    expect(result?.content).toContain(`URL: ${url}`);
    // The server got the action alone: a URL request's values stay on its page.
    expect(result?.content).toMatch(/Raw result: \{\s*"action": "accept"\s*\}/);
    device.close();
    phone.close();
  });
});
