import { describe, expect, it } from "vitest";
import { agentNoticeText } from "../../../web/src/agent-notice";

describe("the notice on an external agent's session page", () => {
  it("names the agent and what it said it works on, and says it runs outside Parley", () => {
    const text = agentNoticeText({ name: "claude-code", title: "~/src/shop" });
    expect(text).toContain("claude-code · ~/src/shop");
    expect(text).toContain("runs outside Parley");
    expect(text).not.toMatch(/demo/i);
  });

  it("names the agent alone when it gave no title", () => {
    expect(agentNoticeText({ name: "codex", title: "  " })).toMatch(/^codex — /);
    expect(agentNoticeText({ name: "codex", title: null })).toMatch(/^codex — /);
  });

  it("is absent for Parley's own agent", () => {
    expect(agentNoticeText(null)).toBeNull();
  });
});
