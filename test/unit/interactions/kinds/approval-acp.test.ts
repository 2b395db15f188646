import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import { mayDecideBeyondCard } from "../../../../src/protocol/access/owner-decisions";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);

function openAcp(acp: Record<string, unknown>): unknown {
  const opened = registry.open("approval", {
    toolName: "`rm -rf build`",
    input: { command: "rm -rf build" },
    risk: "execute",
    acp: { kind: "execute", allowAlways: false, rejectAlways: false, ...acp },
  });
  if (!opened.ok) throw new Error(opened.message);
  return opened.request;
}

describe("an approval card for an ACP agent's request", () => {
  it("keeps the tool call's content, locations and offered choices", () => {
    const request = openAcp({
      allowAlways: true,
      content: [{ type: "diff", path: "/p/a.ts", oldText: "a", newText: "b" }],
      locations: [{ path: "/p/a.ts", line: 3 }],
    }) as { acp: Record<string, unknown> };
    expect(request.acp).toMatchObject({
      allowAlways: true,
      content: [{ type: "diff", path: "/p/a.ts", oldText: "a", newText: "b" }],
      locations: [{ path: "/p/a.ts", line: 3 }],
    });
  });

  it("refuses content of an unknown shape", () => {
    const opened = registry.open("approval", {
      toolName: "x",
      input: {},
      risk: "execute",
      acp: { allowAlways: false, rejectAlways: false, content: [{ type: "image", data: "…" }] },
    });
    expect(opened.ok).toBe(false);
  });

  it("refuses always allow when the agent does not offer it, and takes it when it does", () => {
    const refused = registry.respond("approval", openAcp({}), { decision: "approve", remember: true });
    expect(refused).toEqual({ ok: false, message: "this agent does not offer to always allow this call" });
    const taken = registry.respond("approval", openAcp({ allowAlways: true }), {
      decision: "approve",
      remember: true,
    });
    expect(taken).toMatchObject({ ok: true, response: { decision: "approve", remember: true } });
  });

  it("takes always deny only where the agent offers it", () => {
    const refused = registry.respond("approval", openAcp({}), { decision: "deny", remember: true });
    expect(refused).toEqual({ ok: false, message: "this agent does not offer to always deny this call" });
    const taken = registry.respond("approval", openAcp({ rejectAlways: true }), {
      decision: "deny",
      remember: true,
    });
    expect(taken).toMatchObject({
      ok: true,
      response: { decision: "deny", reason: null, remember: true },
      outcome: "denied",
    });
  });

  it("refuses always deny on a card of Parley's own agent", () => {
    const opened = registry.open("approval", { toolName: "bash", input: {}, risk: "execute" });
    if (!opened.ok) throw new Error(opened.message);
    const refused = registry.respond("approval", opened.request, { decision: "deny", remember: true });
    expect(refused).toEqual({
      ok: false,
      message: "always deny is offered only for an ACP agent's requests",
    });
  });

  it("refuses edited arguments and deny-and-stop, which an ACP agent cannot take", () => {
    const edited = registry.respond("approval", openAcp({}), {
      decision: "approve",
      updatedInput: { command: "ls" },
    });
    expect(edited).toMatchObject({
      ok: false,
      message: expect.stringMatching(/cannot take edited arguments/),
    });
    const stop = registry.respond("approval", openAcp({}), { decision: "deny", stop: true });
    expect(stop).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be stopped/) });
  });

  it("leaves always deny to the owner: an answer link cannot give it", () => {
    const always = registry.beyondCard("approval", { decision: "deny", remember: true });
    expect(mayDecideBeyondCard("answer", always)).toBe(false);
    expect(mayDecideBeyondCard("owner", always)).toBe(true);
    expect(mayDecideBeyondCard("answer", registry.beyondCard("approval", { decision: "deny" }))).toBe(true);
  });
});
