import { describe, expect, it } from "vitest";
import { type LiveForm, type LiveForms, pushedFormHandler } from "../../../src/mcp/live-forms";

const formRequest = {
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
};

describe("forms a server pushes inside one call", () => {
  it("count against the per-call form cap: past it the server is refused and no card opens", async () => {
    const opened: LiveForm[] = [];
    const live: LiveForms = {
      ask: async (form) => {
        opened.push(form);
        return { action: "accept", content: { name: "Ada" } };
      },
    };
    const handler = pushedFormHandler(
      live,
      { name: "s", url: "https://mcp.example.com/mcp" },
      { toolCallId: "toolu_1", toolName: "mcp__s__t" },
      new AbortController().signal,
      3,
    );
    for (let i = 0; i < 3; i += 1)
      await expect(handler(formRequest)).resolves.toMatchObject({ action: "accept" });
    await expect(handler(formRequest)).rejects.toThrow(/more than 3 times in one call/);
    expect(opened.map((form) => form.id)).toEqual([
      "toolu_1-pushed-1",
      "toolu_1-pushed-2",
      "toolu_1-pushed-3",
    ]);
  });
});
