import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/config";

const env = { SESSION_SECRET: "a-session-secret-of-at-least-32-bytes" };

describe("the spending limit variables", () => {
  it("read SESSION_TOKEN_BUDGET as tokens per day, and no limit when it is unset", () => {
    expect(readConfig({ ...env, SESSION_TOKEN_BUDGET: "2000000" }).sessionTokenBudget).toBe(2_000_000);
    expect(readConfig(env).sessionTokenBudget).toBeNull();
  });

  it("refuse a SESSION_TOKEN_BUDGET that is not a whole number of at least 1000, naming it", () => {
    for (const bad of ["lots", "2.5", "999", "-1"]) {
      expect(() => readConfig({ ...env, SESSION_TOKEN_BUDGET: bad })).toThrow(/SESSION_TOKEN_BUDGET/);
    }
  });

  it("read PUSH_SERVICE_DOMAINS as a comma-separated list of host names, refusing anything else", () => {
    expect(
      readConfig({ ...env, PUSH_SERVICE_DOMAINS: "push.example.com,autopush.example.org" })
        .pushServiceDomains,
    ).toEqual(["push.example.com", "autopush.example.org"]);
    expect(readConfig(env).pushServiceDomains).toEqual([]);
    for (const bad of [
      "https://push.example.com",
      "push.example.com, other.example",
      "localhost",
      "*.example.com",
    ]) {
      expect(() => readConfig({ ...env, PUSH_SERVICE_DOMAINS: bad })).toThrow(/PUSH_SERVICE_DOMAINS/);
    }
  });
});
