import { describe, expect, it } from "vitest";
import { linkRoleOf, takeInboxRoute } from "../../../web/src/ui/inbox/inbox-route";

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

describe("the inbox route", () => {
  it("takes an inbox link's token out of the address and finds it again after a reload", () => {
    const storage = memoryStorage();
    const replaced: string[] = [];
    const place = (hash: string) => ({ hash, replace: (next: string) => void replaced.push(next) });
    expect(takeInboxRoute(place("#/inbox?token=eyJ.link"), storage)).toEqual({ linkToken: "eyJ.link" });
    expect(replaced).toEqual(["#/inbox"]);
    expect(takeInboxRoute(place("#/inbox"), storage)).toEqual({ linkToken: "eyJ.link" });
  });

  it("opens the person's own inbox at the root, and leaves a session's address alone", () => {
    const storage = memoryStorage();
    const place = (hash: string) => ({ hash, replace: () => {} });
    expect(takeInboxRoute(place(""), storage)).toEqual({ linkToken: null });
    expect(takeInboxRoute(place("#/"), storage)).toEqual({ linkToken: null });
    expect(takeInboxRoute(place(`#/s/${"a".repeat(32)}?token=x`), storage)).toBeNull();
  });
});

describe("an inbox link's role on the page", () => {
  const token = (claims: object) =>
    `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify(claims)).replaceAll("=", "")}.signature`;

  it("reads view from the token, and treats anything unreadable as an answer link the server still checks", () => {
    expect(linkRoleOf(token({ role: "view" }))).toBe("view");
    expect(linkRoleOf(token({ role: "answer" }))).toBe("answer");
    expect(linkRoleOf("not-a-token")).toBe("answer");
  });
});
