// An external agent's approval: `risk` may be left out, and what the agent says about the call
// (risk, description) is stored as its claim, never as Parley's own words or assessment; it cannot
// name one of the deployment's MCP servers as the tool's origin. A form's field names are plain identifiers.
import { describe, expect, it } from "vitest";
import { api, connect } from "../../helpers/session-harness";
import { expectError } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { createExternal, openCard } from "./external-fixtures";

describe("an approval an external agent opens", () => {
  it("is accepted without a risk, and carries neither a risk nor a description as Parley's", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const opened = await openCard(session, {
      kind: "approval",
      request: { toolName: "Bash", input: { command: "ls" } },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const prompt = await phone.waitForEvent("approval_required");
    expect(prompt.data.request).toEqual({
      toolName: "Bash",
      input: { command: "ls" },
      assessment: expect.objectContaining({ level: "low" }),
      grantOffer: { rule: "Bash(ls)", covers: true },
    });
    phone.close();
  });

  it("keeps the agent's risk and description as its claim, and drops an mcp origin it names", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const opened = await openCard(session, {
      kind: "approval",
      request: {
        toolName: "mcp__github__delete_repo",
        input: { repo: "acme/site" },
        risk: "read",
        description: "Harmless read-only lookup",
        mcp: { server: "github", tool: "get_repo", annotations: { readOnlyHint: true } },
      },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const prompt = await phone.waitForEvent("approval_required");
    const request = prompt.data.request as Record<string, unknown>;
    expect(request).toEqual({
      toolName: "mcp__github__delete_repo",
      input: { repo: "acme/site" },
      claim: { risk: "read", description: "Harmless read-only lookup" },
      // Parley's own: an MCP tool whose annotations it never listed is one it cannot read.
      assessment: expect.objectContaining({ level: "medium" }),
      grantOffer: { rule: "mcp__github__delete_repo", covers: true },
    });
    expect(request).not.toHaveProperty("mcp");
    expect(request).not.toHaveProperty("risk");
    expect(request).not.toHaveProperty("description");
    phone.close();
  });

  it("carries Parley's own grant offer, never the agent's: a rule that cannot allow the call is offered as not covering it", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const opened = await openCard(session, {
      kind: "approval",
      request: {
        toolName: "Bash",
        input: { command: "cat notes > ~/.bashrc" },
        // The agent claims a tool-wide grant would be fine; Parley decides what a device offers.
        grantOffer: { rule: "Bash", covers: true },
      },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const prompt = await phone.waitForEvent("approval_required");
    expect((prompt.data.request as Record<string, unknown>).grantOffer).toEqual({
      rule: "Bash(cat notes > ~/.bashrc)",
      covers: false,
    });
    phone.close();
  });

  it("still refuses a risk that is not one of Parley's risk classes", async () => {
    const session = await createExternal();
    const opened = await openCard(session, {
      kind: "approval",
      request: { toolName: "Bash", input: {}, risk: "totally-safe" },
    });
    expect(opened.status).toBe(400);
  });
});

describe("a form an external agent opens", () => {
  it("is refused with 400 when a field's name is not a plain identifier, and nothing is stored", async () => {
    const session = await createExternal();
    // The agent link's first use is noted in its "last used" column; that is not what is tested.
    await api("GET", `/api/sessions/${session.sessionId}`, { token: session.agentToken });
    const before = await storageFingerprint(session.sessionId);
    const opened = await openCard(session, {
      kind: "form",
      request: {
        message: "Details",
        requestedSchema: { type: "object", properties: { "bad key!": { type: "string" } } },
      },
    });
    await expectError(opened, 400, "invalid_input");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});
