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

  it("says the folder and machine it runs in when the session knows them", () => {
    const text = agentNoticeText({
      name: "claude",
      title: null,
      folder: "/home/ana/shop",
      machine: "Ana's laptop",
    });
    expect(text).toBe(
      "claude — an agent that runs outside Parley, in /home/ana/shop on machine Ana's laptop. Replies here come from it, not from a Parley model.",
    );
    expect(agentNoticeText({ name: "codex", title: null, folder: "/srv/app" })).toContain(
      "in /srv/app on its own machine.",
    );
  });

  it("shows a folder's hidden characters spelled out and a long one by both ends", () => {
    // A right-to-left override would show the path reversed: it is printed as its code instead.
    const reversed = agentNoticeText({ name: "a", title: null, folder: "/home/\u202egnp.exe" });
    expect(reversed).not.toContain("\u202e");
    expect(reversed).toContain("/home/\\u202egnp.exe");
    const deep = `/home/${"x/".repeat(200)}secret-project`;
    const long = agentNoticeText({ name: "a", title: null, folder: deep }) ?? "";
    expect(long).toContain("in /home/x/");
    expect(long).toContain("secret-project on its own machine");
    expect(long.length).toBeLessThan(deep.length);
  });

  it("is absent for Parley's own agent", () => {
    expect(agentNoticeText(null)).toBeNull();
  });
});
