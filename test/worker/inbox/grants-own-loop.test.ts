// Grants apply to Parley's own loop too: a call the permission policy would ask about is decided
// by the person's grants first — run with no card, or refused — and recorded like any decision.
import { describe, expect, it } from "vitest";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import { isPromptEvent } from "../../../src/protocol/wire/prompt-event";
import { textReply, toolReply } from "../../helpers/session-harness";
import { deliverOutbox, Person } from "./inbox-fixtures";

const write = (id: string, key: string) =>
  toolReply([{ id, name: "notes_write", input: { key, text: "Remember the milk" } }]);

describe("grants in Parley's own loop", () => {
  it("run a call an allow covers without a card, and refuse one a deny covers", async () => {
    const alice = new Person("alice.grants.loop@example.com");
    const allowed = await alice.api("POST", "/api/grants", {
      body: { rule: "notes_write", scope: "agent", agent: { name: "Parley" } },
    });
    const { grantId } = (await allowed.json()) as { grantId: string };
    const session = await alice.createSession({
      script: [write("toolu_note_1", "shopping"), textReply("Saved.")],
    });
    const device = await alice.connect(session);
    await device.request({ type: "send_message", text: "Note the milk" });
    await device.waitForEvent("done");
    expect(device.events.some((event) => isPromptEvent(event))).toBe(false);
    const result = device.events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ data: { toolCallId: "toolu_note_1", isError: false } });
    await deliverOutbox(session);
    const page = (await (await alice.api("GET", "/api/decisions")).json()) as DecisionPage;
    expect(page.decisions).toEqual([
      expect.objectContaining({
        agent: "Parley",
        toolName: "notes_write",
        decidedBy: { kind: "grant", label: "notes_write", id: grantId, device: null },
      }),
    ]);

    await alice.api("POST", "/api/grants", {
      body: { effect: "deny", rule: "notes_write", scope: "all", reason: "No notes today" },
    });
    const denied = await alice.createSession({
      script: [write("toolu_note_2", "todo"), textReply("Understood.")],
    });
    const other = await alice.connect(denied);
    await other.request({ type: "send_message", text: "Note the milk" });
    await other.waitForEvent("done");
    expect(other.events.some((event) => isPromptEvent(event))).toBe(false);
    const refused = other.events.find((event) => event.type === "tool_result");
    expect(refused).toMatchObject({ data: { toolCallId: "toolu_note_2", isError: true } });
    expect(JSON.stringify(refused)).toContain("No notes today");
  });
});
