import { describe, expect, it } from "vitest";
import { answererName, approverKey, type Decider } from "../../../src/protocol/cards/decider";
import { StoredDecider } from "../../../src/protocol/inbox/decisions";

const decider = (kind: Decider["kind"], id: string | null, label: string | null = id): Decider => ({
  kind,
  label,
  id,
  device: null,
});

describe("approverKey", () => {
  it("counts every door of one person as that person: page, terminal, their links and their chat account", () => {
    const ana = { personId: "ana@example.com" };
    const keys = [
      approverKey({ ...decider("person", "ana@example.com"), device: "page", ...ana }, "ana@example.com"),
      approverKey({ ...decider("person", "ana@example.com"), device: "terminal", ...ana }, null),
      approverKey({ ...decider("link", "link_1"), ...ana }, "ana@example.com"),
      approverKey({ ...decider("link", "link_2"), ...ana }, "ana@example.com"),
      approverKey({ ...decider("chat", "telegram:42"), ...ana }, "ana@example.com"),
    ];
    expect(new Set(keys)).toEqual(new Set(["person:ana@example.com"]));
  });

  it("tells two people apart, even through one link", () => {
    const link = decider("link", "link_1");
    expect(approverKey({ ...link, personId: "ana@example.com" }, "ana@example.com")).not.toBe(
      approverKey({ ...link, personId: "bo@example.com" }, "ana@example.com"),
    );
  });

  it("counts an answer that names no person as the session's owner, and every one of them alike where nobody created the session", () => {
    expect(approverKey(decider("link", "link_1"), "ana@example.com")).toBe("person:ana@example.com");
    expect(approverKey({ ...decider("chat", "telegram:42"), personId: null }, "ana@example.com")).toBe(
      "person:ana@example.com",
    );
    expect(approverKey(decider("link", "link_1"), null)).toBe(approverKey(decider("person", null), null));
    expect(approverKey(decider("link", "link_1"), null)).not.toBeNull();
  });

  it("is nobody for a grant, a deadline, a policy, a withdrawal or the session", () => {
    for (const kind of ["grant", "deadline", "policy", "withdrawal", "system"] as const)
      expect(
        approverKey({ ...decider(kind, "x"), personId: "ana@example.com" }, "ana@example.com"),
      ).toBeNull();
    expect(answererName(decider("grant", "grant_1", "Bash"))).toBeNull();
    expect(answererName(decider("chat", "telegram:42", "Ana · Telegram"))).toBe("Ana · Telegram");
  });
});

describe("StoredDecider", () => {
  it("reads a structured decider as it is, and an older record's shape once, as its name and device said", () => {
    const now = { kind: "link", label: "Bo", id: "link_1", device: "terminal" };
    expect(StoredDecider.parse(now)).toEqual(now);
    expect(StoredDecider.parse({ type: "deadline" })).toEqual(decider("deadline", null));
    expect(StoredDecider.parse({ type: "withdrawal", agent: "Claude Code" })).toEqual(
      decider("withdrawal", null, "Claude Code"),
    );
    expect(StoredDecider.parse({ type: "cancel", device: null })).toEqual(decider("system", null));
    expect(StoredDecider.parse({ type: "cancel", device: "page" })).toEqual({
      ...decider("person", null),
      device: "page",
    });
    expect(StoredDecider.parse({ type: "person", name: "Bo (inbox link 1a2b3c4d)", device: "page" })).toEqual(
      {
        kind: "link",
        label: "Bo (inbox link 1a2b3c4d)",
        id: null,
        device: "page",
      },
    );
    expect(() => StoredDecider.parse({ type: "oracle" })).toThrow();
  });
});
