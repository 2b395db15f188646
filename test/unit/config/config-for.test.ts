import { describe, expect, it } from "vitest";
import { configFor, readConfig } from "../../../src/config";

const env = {
  ANTHROPIC_MODEL: "claude-test",
  INTERACTION_TIMEOUT_MS: "60000",
  SESSION_SECRET: "a-session-secret-of-at-least-32-bytes",
};

describe("the configuration an object reads when it wakes", () => {
  it("is what readConfig gives for the same bindings", () => {
    expect(configFor({ ...env })).toEqual(readConfig({ ...env }));
  });

  it("is read once per env object, so a wake does not parse the bindings again", () => {
    const bindings = { ...env };
    expect(configFor(bindings)).toBe(configFor(bindings));
  });

  it("follows each deployment's own bindings", () => {
    expect(configFor({ ...env, ANTHROPIC_MODEL: "claude-other" }).model).toBe("claude-other");
    expect(configFor({ ...env }).model).toBe("claude-test");
  });

  it("refuses bad bindings as readConfig does, every time", () => {
    const bad = { ...env, INTERACTION_TIMEOUT_MS: "soon" };
    expect(() => configFor(bad)).toThrow(/Invalid configuration/);
    expect(() => configFor(bad)).toThrow(/Invalid configuration/);
  });
});
