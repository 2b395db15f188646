// Protocol 2026-07-28 elicitation (`input_required`): the server's request is stored with the tool
// call, its form is answered from any device — after eviction too — and the call is retried exactly
// once with the answers and the server's `requestState`; decline and timeout reach the server as such.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { connect, textReply, toolReply } from "../../helpers/session-harness";
import type { RecordedCall } from "../../mcp-servers/mrtr-server";
import {
  dumpStorage,
  eventsOf,
  lastMessage,
  modelRequests,
  stubOf,
  tableRows,
  toolResultsOf,
} from "../interactions/interaction-fixtures";
import { control, mcpSession, respond } from "./mcp-fixtures";

const DEPLOY = "mcp__mrtr__confirm-deploy";

async function callsFor(env: string): Promise<RecordedCall[]> {
  const calls = (await control("GET", "/mrtr/calls")) as RecordedCall[];
  return calls.filter((call) => (call.arguments as { env: string }).env === env);
}

function deploySession(env: string, extra: Record<string, unknown> = {}) {
  return mcpSession(
    ["mrtr"],
    [
      toolReply([{ name: DEPLOY, id: `toolu_${env.replaceAll("-", "_")}`, input: { env } }]),
      textReply("Finished."),
    ],
    { permissionMode: "bypassPermissions", ...extra },
  );
}

describe("an MCP tool that answers input_required", () => {
  it("opens the server's form, survives eviction, and retries once with the answers and the untouched requestState", async () => {
    const env = `staging-${crypto.randomUUID().slice(0, 8)}`;
    const { session, device } = await deploySession(env);
    await device.request({ type: "send_message", text: "deploy" });
    const prompt = await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    expect(prompt.data.request).toMatchObject({
      message: `Deploy to ${env}?`,
      requestedSchema: { properties: { confirm: { type: "boolean" }, window: { enum: ["now", "tonight"] } } },
    });
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    const [stored] = await tableRows<{ state: string }>(session, "SELECT state FROM mcp_calls");
    expect(JSON.parse(stored?.state ?? "{}")).toMatchObject({
      rounds: [
        {
          requestState: `deploy:${env}:round-1`,
          inputRequests: { confirm: { method: "elicitation/create" } },
        },
      ],
    });
    expect(await callsFor(env)).toHaveLength(1);
    device.close();

    await evictDurableObject(stubOf(session), { webSockets: "close" });
    const phone = await connect(session, { device: "phone" });
    const content = { confirm: true, window: "tonight" };
    const answered = await respond(
      session,
      prompt.data.interactionId ?? "",
      { action: "accept", content },
      "phone",
    );
    expect(answered.status).toBe(200);
    await phone.waitForDone(1, 15_000);

    const result = eventsOf(phone, "tool_result").at(-1);
    expect(result?.data).toMatchObject({
      name: DEPLOY,
      content: `Deployed to ${env} (tonight, confirmed=true).`,
      isError: false,
    });
    expect(await callsFor(env)).toEqual([
      { arguments: { env }, inputResponses: null, requestState: null },
      {
        arguments: { env },
        inputResponses: { confirm: { action: "accept", content } },
        requestState: `deploy:${env}:round-1`,
      },
    ]);
    const [request] = await modelRequests(session);
    expect(toolResultsOf(lastMessage(request))[0]?.content).toBe(
      `Deployed to ${env} (tonight, confirmed=true).`,
    );
    phone.close();
  });

  it("passes a decline on to the server, which ends the call its own way", async () => {
    const env = `prod-${crypto.randomUUID().slice(0, 8)}`;
    const { session, device } = await deploySession(env);
    await device.request({ type: "send_message", text: "deploy" });
    const prompt = await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    expect(
      (await respond(session, prompt.data.interactionId ?? "", { action: "decline" }, "phone")).status,
    ).toBe(200);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "tool_result").at(-1)?.data).toMatchObject({
      content: `Deployment to ${env} was declined.`,
      isError: true,
    });
    expect((await callsFor(env)).map((call) => call.inputResponses)).toEqual([
      null,
      { confirm: { action: "decline" } },
    ]);
    device.close();
  });

  it("answers cancel when the form times out", async () => {
    const env = `qa-${crypto.randomUUID().slice(0, 8)}`;
    const { device } = await deploySession(env, { interactionTimeoutMs: 300 });
    await device.request({ type: "send_message", text: "deploy" });
    await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "interaction_resolved").at(-1)?.data.outcome).toBe("timed_out");
    expect(eventsOf(device, "tool_result").at(-1)?.data.content).toBe(`Deployment to ${env} was cancelled.`);
    expect((await callsFor(env)).map((call) => call.inputResponses)).toEqual([
      null,
      { confirm: { action: "cancel" } },
    ]);
    device.close();
  });

  it("refuses a malformed answer and changes nothing", async () => {
    const env = `dev-${crypto.randomUUID().slice(0, 8)}`;
    const { session, device } = await deploySession(env);
    await device.request({ type: "send_message", text: "deploy" });
    const prompt = await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    const before = await dumpStorage(session);
    const bad = await respond(
      session,
      prompt.data.interactionId ?? "",
      { action: "accept", content: { window: "someday" } },
      "phone",
    );
    expect(bad.status).toBe(400);
    expect(await dumpStorage(session)).toEqual(before);
    expect(await callsFor(env)).toHaveLength(1);
    device.close();
  });
});

describe("other input an MCP server asks for", () => {
  it("shows a URL request as a page to visit on every device, and passes on only the action", async () => {
    const { session, device } = await mcpSession(
      ["mrtr"],
      [toolReply([{ name: "mcp__mrtr__sign-in", id: "toolu_signin", input: {} }]), textReply("Signed in.")],
      { permissionMode: "bypassPermissions" },
    );
    const phone = await connect(session, { device: "phone" });
    await device.request({ type: "send_message", text: "sign in" });
    const prompt = await phone.waitForEvent("interaction_prompt", (e) => e.data.kind === "url", 15_000);
    expect(prompt.data.request).toEqual({
      mode: "url",
      message: "Sign in to the test service",
      url: "https://auth.example.com/signin?session=test",
      from: { server: "mrtr", host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
    });
    await device.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");

    // Values typed on the server's page never pass through Parley, so an accept carrying any is refused.
    const before = await dumpStorage(session);
    const withValues = await respond(
      session,
      prompt.data.interactionId ?? "",
      { action: "accept", content: { password: "hunter2" } },
      "phone",
    );
    expect(withValues.status).toBe(400);
    expect(await dumpStorage(session)).toEqual(before);

    const done = await respond(session, prompt.data.interactionId ?? "", { action: "accept" }, "phone");
    expect(done.status).toBe(200);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "interaction_resolved").at(-1)?.data).toMatchObject({
      outcome: "answered",
      resolvedBy: "phone",
    });
    expect(eventsOf(device, "tool_result").at(-1)?.data).toMatchObject({
      content: "Sign-in accept.",
      isError: false,
    });
    device.close();
    phone.close();
  });

  it("tells the server a URL request was declined", async () => {
    const { session, device } = await mcpSession(
      ["mrtr"],
      [
        toolReply([{ name: "mcp__mrtr__sign-in", id: "toolu_nosign", input: {} }]),
        textReply("Not signed in."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    await device.request({ type: "send_message", text: "sign in" });
    const prompt = await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "url", 15_000);
    expect(
      (await respond(session, prompt.data.interactionId ?? "", { action: "decline" }, "laptop")).status,
    ).toBe(200);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "tool_result").at(-1)?.data).toMatchObject({
      content: "Sign-in decline.",
      isError: true,
    });
    device.close();
  });

  it("visits the page a -32042 refusal names, across an eviction, then sends the call again as it was", async () => {
    const url = "https://billing.example.com/approve?order=7";
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([
          {
            name: "mcp__everything__trigger-url-elicitation",
            id: "toolu_required",
            input: { url, message: "Approve the order", errorPath: true },
          },
        ]),
        textReply("Order approved."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    await device.request({ type: "send_message", text: "approve my order" });
    const required = await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "url", 15_000);
    expect(required.data).toMatchObject({
      toolCallId: "toolu_required",
      request: { mode: "url", url: "https://modelcontextprotocol.io", message: expect.any(String) },
    });
    device.close();
    await evictDurableObject(stubOf(session), { webSockets: "close" });

    const phone = await connect(session, { device: "phone" });
    expect(
      (await respond(session, required.data.interactionId ?? "", { action: "accept" }, "phone")).status,
    ).toBe(200);
    // Sent again, the call goes ahead and the server asks for its own page over the open call.
    const pushed = await phone.waitForEvent(
      "interaction_prompt",
      (e) => e.data.kind === "url" && e.data.interactionId !== required.data.interactionId,
      15_000,
    );
    expect(pushed.data.request).toMatchObject({ mode: "url", url, message: "Approve the order" });
    expect(
      (await respond(session, pushed.data.interactionId ?? "", { action: "accept" }, "phone")).status,
    ).toBe(200);
    await phone.waitForDone(1, 15_000);
    const result = eventsOf(phone, "tool_result").at(-1)?.data;
    expect(result?.isError).toBe(false);
    expect(result?.content).toContain("✅ User completed the URL elicitation flow.");
    phone.close();
  });

  it("does not send a -32042 call again when its page is declined, and says why", async () => {
    const { session, device } = await mcpSession(
      ["everything"],
      [
        toolReply([
          {
            name: "mcp__everything__trigger-url-elicitation",
            id: "toolu_required_no",
            input: { url: "https://billing.example.com/x", errorPath: true },
          },
        ]),
        textReply("Not approved."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    await device.request({ type: "send_message", text: "approve my order" });
    const required = await device.waitForEvent("interaction_prompt", (e) => e.data.kind === "url", 15_000);
    expect(
      (await respond(session, required.data.interactionId ?? "", { action: "decline" }, "laptop")).status,
    ).toBe(200);
    await device.waitForDone(1, 15_000);
    expect(eventsOf(device, "tool_result").at(-1)?.data).toEqual(
      expect.objectContaining({
        content:
          'MCP server "everything" needs the user to finish on its page before this call; the user declined to open it, so the call was not completed.',
        isError: true,
      }),
    );
    expect(eventsOf(device, "interaction_prompt")).toHaveLength(1);
    device.close();
  });

  it("refuses sampling: the call ends with an error result and the session goes on", async () => {
    const { device } = await mcpSession(
      ["mrtr"],
      [
        toolReply([{ name: "mcp__mrtr__summarize", id: "toolu_sample", input: {} }]),
        textReply("No summary."),
      ],
      { permissionMode: "bypassPermissions" },
    );
    await device.request({ type: "send_message", text: "summarize" });
    await device.waitForDone(1, 15_000);
    const result = eventsOf(device, "tool_result").at(-1)?.data;
    expect(result?.isError).toBe(true);
    expect(result?.content).toMatch(/^MCP server "mrtr" .*sampl/i);
    expect(eventsOf(device, "interaction_prompt")).toEqual([]);
    device.close();
  });
});
