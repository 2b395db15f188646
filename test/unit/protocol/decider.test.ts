import { describe, expect, it } from "vitest";
import { answererKey, answererName, type Decider } from "../../../src/protocol/decider";
import { StoredDecider } from "../../../src/protocol/decisions";

const decider = (kind: Decider["kind"], id: string | null, label: string | null = id): Decider => ({
  kind,
  label,
  id,
  device: null,
});

describe("answererKey", () => {
  it("tells a person, a link and a chat account apart, and the same one on any device is one", () => {
    const keys = [
      answererKey({ ...decider("person", "ana@example.com"), device: "page" }),
      answererKey({ ...decider("person", "ana@example.com"), device: "terminal" }),
      answererKey(decider("link", "link_1")),
      answererKey(decider("link", "link_2")),
      answererKey(decider("chat", "telegram:42")),
    ];
    expect(keys).toEqual([
      "person:ana@example.com",
      "person:ana@example.com",
      "link:link_1",
      "link:link_2",
      "chat:telegram:42",
    ]);
  });

  it("is nobody for a grant, a deadline, a policy, a withdrawal, the session, or an answerer without an id", () => {
    for (const kind of ["grant", "deadline", "policy", "withdrawal", "system"] as const)
      expect(answererKey(decider(kind, "x"))).toBeNull();
    expect(answererKey(decider("link", null, "Bo (share link 1a2b3c4d)"))).toBeNull();
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
