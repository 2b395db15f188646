import { describe, expect, it } from "vitest";
import { forgetSession, readRecent, rememberSession, updateStatus } from "../../../web/src/recent-sessions";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe("the browser's list of recent sessions", () => {
  it("keeps the most recently seen session first and remembers its title and status", () => {
    const storage = memoryStorage();
    rememberSession(storage, { sessionId: "a", token: "ta" }, 1_000);
    rememberSession(storage, { sessionId: "b", token: "tb", title: "Second" }, 2_000);
    rememberSession(
      storage,
      { sessionId: "a", token: "ta", status: "awaiting_input", title: "First" },
      3_000,
    );
    expect(readRecent(storage)).toEqual([
      { sessionId: "a", token: "ta", title: "First", status: "awaiting_input", lastSeenAt: 3_000 },
      { sessionId: "b", token: "tb", title: "Second", status: "idle", lastSeenAt: 2_000 },
    ]);
  });

  it("keeps a stored title when an update leaves it out, and updates a status without reordering", () => {
    const storage = memoryStorage();
    rememberSession(storage, { sessionId: "a", token: "ta", title: "Plan" }, 1_000);
    rememberSession(storage, { sessionId: "b", token: "tb" }, 2_000);
    rememberSession(storage, { sessionId: "a", token: "ta", title: undefined }, 3_000);
    updateStatus(storage, "b", "unavailable");
    expect(readRecent(storage).map((s) => [s.sessionId, s.title, s.status])).toEqual([
      ["a", "Plan", "idle"],
      ["b", null, "unavailable"],
    ]);
  });

  it("forgets a session and keeps at most twenty", () => {
    const storage = memoryStorage();
    for (let i = 0; i < 25; i++) rememberSession(storage, { sessionId: `s${i}`, token: "t" }, i);
    expect(readRecent(storage)).toHaveLength(20);
    forgetSession(storage, "s24");
    expect(readRecent(storage)[0]?.sessionId).toBe("s23");
  });

  it("starts over from corrupt or blocked storage instead of failing the start page", () => {
    expect(readRecent(memoryStorage({ "parley.recentSessions": "{not json" }))).toEqual([]);
    expect(readRecent(memoryStorage({ "parley.recentSessions": '[{"sessionId":1}]' }))).toEqual([]);
    expect(readRecent(null)).toEqual([]);
    expect(() => rememberSession(null, { sessionId: "a", token: "t" })).not.toThrow();
  });
});
