import { describe, expect, it } from "vitest";
import { type Card, promptFor, type Reply } from "../../../bin/card-prompts";

function run(card: Card, lines: string[]): Reply[] {
  const prompt = promptFor(card);
  if (!prompt) throw new Error("no prompt");
  return [prompt.start(), ...lines.map((line) => prompt.input(line))];
}

function card(role: string | undefined): Card {
  return {
    interactionId: "ext_1",
    toolCallId: "ext_1",
    kind: "approval",
    toolName: "Bash",
    request: {
      toolName: "Bash",
      input: { command: "npm run test -- --watch=false" },
      suggestedRules: ["Bash(npm run test:*)"],
    },
    ...(role ? { role } : {}),
  };
}

describe("allow … for in a terminal", () => {
  it("pre-fills the rule the agent suggested, and offers the owner every scope", () => {
    const steps = run(card("owner"), ["g", "", "e", "h"]);
    expect(JSON.stringify(steps[1])).toContain("Bash(npm run test:*)");
    expect(steps[2]).toMatchObject({ prompt: "s/a/e› " });
    expect((steps[2] as { lines: string[] }).lines[1]).toBe(
      "  for s) this session   a) this agent   e) everywhere",
    );
    expect(steps[4]).toMatchObject({
      command: {
        response: { grant: { rule: "Bash(npm run test:*)", scope: "all", expiresInSeconds: 3_600 } },
      },
    });
  });

  it("offers an answer link this session only, never asking where, since the server refuses wider", () => {
    const steps = run(card("answer"), ["g", "", "d"]);
    expect(steps[2]).toMatchObject({ kind: "ask", prompt: "h/d/w/r› " });
    expect((steps[2] as { lines: string[] }).lines).toContain(
      "  for this session (only the session's owner may grant wider)",
    );
    expect(steps[3]).toEqual({
      kind: "send",
      command: {
        type: "respond",
        interactionId: "ext_1",
        response: {
          decision: "approve",
          grant: { rule: "Bash(npm run test:*)", scope: "session", expiresInSeconds: 86_400 },
        },
      },
    });
  });

  it("takes no wider scope from an answer link even when one is typed where the rule goes next", () => {
    const steps = run(card("answer"), ["g", "", "e"]);
    expect(steps[3]).toMatchObject({ kind: "ask", lines: ["Type h, d, w or r."] });
  });
});
