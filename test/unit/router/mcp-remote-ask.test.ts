// The remote endpoint's wait when the session's object cannot be reached: it tries again with
// back-off, and when the object stays away the call ends with an error that says what happened.
import { describe, expect, it } from "vitest";
import type { Outcome } from "../../../src/objects/outcome";
import type { ExternalInteraction, OpenedInteraction } from "../../../src/protocol/external/external";
import { askRemotely, type RemoteSession } from "../../../src/router/sessions/mcp-remote-ask";

const touch = { tool_name: "Bash", input: { command: "touch x" }, tool_use_id: "toolu_1" };
const opened: Outcome<OpenedInteraction> = {
  ok: true,
  result: { interactionId: "ext_1", status: "pending", created: true },
};

const card: ExternalInteraction = {
  interactionId: "ext_1",
  kind: "approval",
  key: "toolu_1",
  status: "pending",
  request: {},
  createdAt: 0,
  expiresAt: 60_000,
  resolution: null,
};

function pending(): Outcome<ExternalInteraction> {
  return { ok: true, result: card };
}

describe("a remote permission request whose session cannot be reached", () => {
  it("ends with an error saying the connection was lost and that a repeat call re-attaches", async () => {
    const pauses: number[] = [];
    const session: RemoteSession = {
      open: async () => opened,
      read: async () => {
        throw new Error("Network connection lost.");
      },
    };
    const answer = await askRemotely(session, touch, { pause: async (ms) => void pauses.push(ms) });
    expect(answer).toEqual({
      error: expect.stringContaining("connection between Parley's endpoint and this session was lost"),
    });
    expect("error" in answer && answer.error).toContain("Network connection lost.");
    expect("error" in answer && answer.error).toContain("same tool_use_id");
    expect(pauses.length).toBeGreaterThan(1);
  });

  it("waits on through a short outage and returns the answer read after it", async () => {
    let failures = 2;
    const session: RemoteSession = {
      open: async () => opened,
      read: async () => {
        if (failures-- > 0) throw new Error("Durable Object reset");
        return {
          ok: true,
          result: {
            ...card,
            status: "resolved",
            resolution: { outcome: "approved", response: { decision: "approve" }, by: "phone", at: 1 },
          },
        };
      },
    };
    const answer = await askRemotely(session, touch, { pause: async () => {} });
    expect(answer).toEqual({ decision: { behavior: "allow", updatedInput: touch.input } });
  });

  it("denies with Parley's own words when the session refuses the card", async () => {
    const session: RemoteSession = {
      open: async () => ({ ok: false, error: { code: "unknown_session", message: "No such session" } }),
      read: async () => pending(),
    };
    expect(await askRemotely(session, touch)).toEqual({
      decision: {
        behavior: "deny",
        message: "Parley refused the request (unknown_session: No such session). The tool was not run.",
      },
    });
  });
  it("offers the always-allow suggestions a call carries on its card, and answers with a plain allow", async () => {
    const bodies: unknown[] = [];
    const session: RemoteSession = {
      open: async (body) => {
        bodies.push(body);
        return opened;
      },
      read: async () => ({
        ok: true,
        result: {
          ...card,
          status: "resolved",
          resolution: {
            outcome: "approved",
            response: { decision: "approve", remember: true },
            by: "phone",
            at: 1,
          },
        },
      }),
    };
    const suggestions = [
      { type: "addRules", behavior: "allow", rules: [{ toolName: "Bash", ruleContent: "touch:*" }] },
    ];
    const answer = await askRemotely(session, { ...touch, permission_suggestions: suggestions });
    expect(bodies).toEqual([
      expect.objectContaining({
        key: "toolu_1",
        request: expect.objectContaining({ suggestedRules: ["Bash(touch:*)"] }),
      }),
    ]);
    expect(answer).toEqual({ decision: { behavior: "allow", updatedInput: touch.input } });
  });
});
