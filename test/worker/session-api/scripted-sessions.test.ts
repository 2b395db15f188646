import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/router/app";
import { api, ORIGIN, textReply } from "../../helpers/session-harness";

const scriptsOff = { ...env, ALLOW_SCRIPTED_SESSIONS: "false" } as Env;

function createWith(body: unknown, bindings: Env = env as Env): Promise<Response> {
  return Promise.resolve(
    app.fetch(
      new Request(`${ORIGIN}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      bindings,
    ),
  );
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

/** Runs `act` and asserts it created no session object. */
async function createsNothing(act: () => Promise<void>): Promise<void> {
  const before = (await listDurableObjectIds(env.SESSIONS)).length;
  await act();
  expect((await listDurableObjectIds(env.SESSIONS)).length).toBe(before);
}

describe("creating scripted sessions", () => {
  it("refuses a script with 403 forbidden when ALLOW_SCRIPTED_SESSIONS is off", async () => {
    await createsNothing(async () => {
      const response = await createWith({ script: [textReply("hi")] }, scriptsOff);
      expect(response.status).toBe(403);
      const error = await errorOf(response);
      expect(error.code).toBe("forbidden");
      expect(error.message).toContain("ALLOW_SCRIPTED_SESSIONS");
    });
  });

  it("refuses a per-session interaction timeout with 403 forbidden when scripted sessions are off", async () => {
    await createsNothing(async () => {
      const response = await createWith({ interactionTimeoutMs: 1_000 }, scriptsOff);
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({ code: "forbidden" });
    });
  });

  it("still creates an ordinary session when scripted sessions are off", async () => {
    const response = await createWith({ permissionMode: "plan" }, scriptsOff);
    expect(response.status).toBe(201);
    const { sessionId, token } = (await response.json()) as { sessionId: string; token: string };
    const snapshot = await api("GET", `/api/sessions/${sessionId}`, { token });
    expect(await snapshot.json()).toMatchObject({ mode: "plan", demo: true });
  });

  it("answers an invalid script with 400 invalid_input naming the offending path", async () => {
    await createsNothing(async () => {
      const response = await createWith({
        script: [textReply("fine"), { content: [{ type: "text", text: 42 }] }],
      });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_input");
      expect(error.message).toContain("script: 1.content.0.text");
    });
  });

  it("names an unknown field inside a scripted reply", async () => {
    await createsNothing(async () => {
      const response = await createWith({ script: [{ content: [], temperature: 1 }] });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_input");
      expect(error.message).toContain("script: 0");
      expect(error.message).toContain("temperature");
    });
  });

  it("names a tool call with an invalid tool name", async () => {
    const response = await createWith({
      script: [{ content: [{ type: "tool_use", name: "no spaces", input: {} }] }],
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain("script: 0.content.0.name");
  });

  it("answers malformed creation bodies precisely and creates nothing", async () => {
    await createsNothing(async () => {
      const notArray = await createWith({ script: "say hi" });
      expect(notArray.status).toBe(400);
      expect(await errorOf(notArray)).toMatchObject({
        code: "invalid_input",
        message: expect.stringContaining("script"),
      });

      const unknown = await createWith({ model: "opus" });
      expect(unknown.status).toBe(400);
      expect(await errorOf(unknown)).toMatchObject({
        code: "invalid_input",
        message: expect.stringContaining("model"),
      });

      const badMode = await createWith({ permissionMode: "yolo" });
      expect(await errorOf(badMode)).toMatchObject({
        code: "invalid_input",
        message: expect.stringContaining("permissionMode"),
      });

      const badJson = await api("POST", "/api/sessions", { rawBody: "{script:" });
      expect(badJson.status).toBe(400);
      expect(await errorOf(badJson)).toMatchObject({ code: "bad_json" });
    });
  });

  it("accepts a valid script and plays it", async () => {
    const response = await createWith({ script: [textReply("hello from the script")] });
    expect(response.status).toBe(201);
    const { sessionId, token } = (await response.json()) as { sessionId: string; token: string };
    const snapshot = await api("GET", `/api/sessions/${sessionId}`, { token });
    expect(await snapshot.json()).toMatchObject({ model: "scripted", demo: false });
  });
});
