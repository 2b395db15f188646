// A chat message of an approval that changes a file says how big the change is and offers a button
// that opens the card in Parley, where the diff is drawn whole.
import { describe, expect, it } from "vitest";
import { cardMessage } from "../../../src/channels/card-message";
import type { InboxCard } from "../../../src/protocol";

function approval(toolName: string, input: unknown, extra: object = {}): InboxCard {
  return {
    sessionId: "0".repeat(32),
    interactionId: "toolu_e",
    toolCallId: "toolu_e",
    toolName,
    kind: "approval",
    request: { toolName, input, risk: "edit", ...extra },
    createdAt: 0,
    expiresAt: 1_000,
  };
}

function buttonsOf(card: unknown): { label: string; value?: string }[] {
  const found: { label: string; value?: string }[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    const element = node as { type?: string; label?: string; value?: string; children?: unknown[] };
    if (element.type === "button" || element.type === "link-button")
      found.push({ label: element.label ?? "", ...(element.value ? { value: element.value } : {}) });
    for (const child of element.children ?? []) walk(child);
  };
  walk(card);
  return found;
}

function textsOf(card: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    const element = node as { type?: string; content?: string; children?: unknown[] };
    if (element.type === "text" && typeof element.content === "string") found.push(element.content);
    for (const child of element.children ?? []) walk(child);
  };
  walk(card);
  return found;
}

const twelveForThree = {
  file_path: "src/app.ts",
  old_string: ["a", "b", "c"].join("\n"),
  new_string: Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n"),
};

describe("an approval that changes a file, in chat", () => {
  it("says +12 −3 in src/app.ts and offers See diff, which opens the card like See all", () => {
    const message = cardMessage({
      card: approval("Edit", twelveForThree),
      ref: 4,
      openUrl: "https://parley.test/",
    });
    expect(textsOf(message)).toContain("+12 \u22123 in src/app.ts");
    const buttons = buttonsOf(message);
    expect(buttons).toContainEqual({ label: "See diff", value: "4.sa" });
    // Shown whole, it can still be answered from chat.
    expect(buttons.map((b) => b.label)).toContain("Approve");
  });

  it("offers only See diff when the change is too long to show whole", () => {
    const huge = { file_path: "src/app.ts", old_string: "x", new_string: "y\n".repeat(2_000) };
    const message = cardMessage({ card: approval("Edit", huge), ref: 5, openUrl: "https://parley.test/" });
    expect(textsOf(message)).toContain("+2000 \u22121 in src/app.ts");
    expect(buttonsOf(message)).toEqual([{ label: "See diff", value: "5.sa" }]);
  });

  it("says how many lines a Write writes, with See file", () => {
    const message = cardMessage({
      card: approval("Write", { file_path: "notes.md", content: "a\nb\nc\n" }),
      ref: 6,
      openUrl: "https://parley.test/",
    });
    expect(textsOf(message)).toContain("writes 3 lines to notes.md");
    expect(buttonsOf(message)).toContainEqual({ label: "See file", value: "6.sa" });
  });

  it("counts an ACP agent's diff content", () => {
    const acp = {
      content: [{ type: "diff", path: "/w/a.txt", oldText: "one\ntwo\n", newText: "one\n2\nthree\n" }],
      allowAlways: false,
      rejectAlways: false,
    };
    const message = cardMessage({
      card: approval("acp:edit", {}, { acp }),
      ref: 7,
      openUrl: "https://parley.test/",
    });
    expect(textsOf(message)).toContain("+2 \u22121 in /w/a.txt");
  });

  it("spells out a path's bidi and control characters", () => {
    const message = cardMessage({
      card: approval("Edit", { ...twelveForThree, file_path: "src/\u202eexe.txt\u001b[2J" }),
      ref: 8,
      openUrl: "https://parley.test/",
    });
    expect(textsOf(message)).toContain("+12 \u22123 in src/\\u202eexe.txt\\x1b[2J");
  });

  it("adds nothing to a call that changes no file, or to a malformed edit", () => {
    for (const card of [
      approval("Bash", { command: "ls" }),
      approval("Edit", { file_path: "a.ts", old_string: 3, new_string: "x" }),
    ]) {
      const message = cardMessage({ card, ref: 9, openUrl: "https://parley.test/" });
      expect(buttonsOf(message).map((b) => b.label)).not.toContain("See diff");
      expect(textsOf(message).some((text) => text.includes(" in "))).toBe(false);
    }
  });
});
