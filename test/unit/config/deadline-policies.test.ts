import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/config";

const env = { SESSION_SECRET: "a-session-secret-of-at-least-32-bytes" };

describe("DEADLINE_POLICIES", () => {
  it("is read per kind and per tool, and absent means the built-in default", () => {
    expect(readConfig(env).deadlinePolicies).toBeNull();
    const policies = {
      default: { remindBeforeMs: [120_000] },
      kinds: { question: { onDeadline: "keep_waiting", maxWaitMs: 172_800_000 } },
      tools: { Bash: { onDeadline: "deny", extendByMs: 300_000 } },
    };
    expect(readConfig({ ...env, DEADLINE_POLICIES: JSON.stringify(policies) }).deadlinePolicies).toEqual(
      policies,
    );
  });

  it("fails start-up naming the bad entry", () => {
    const read = (policies: unknown) => () =>
      readConfig({ ...env, DEADLINE_POLICIES: JSON.stringify(policies) });
    expect(read({ tools: { Bash: { onDeadline: "ignore" } } })).toThrow(
      /DEADLINE_POLICIES: tools\.Bash\.onDeadline/,
    );
    expect(read({ kinds: { question: { maxWaitMs: 8 * 86_400_000 } } })).toThrow(
      /DEADLINE_POLICIES: kinds\.question\.maxWaitMs: must be at most 604800000 ms \(7 days\)/,
    );
    expect(read({ kinds: { questoin: { onDeadline: "deny" } } })).toThrow(
      /DEADLINE_POLICIES: kinds\.questoin: no interaction kind has this name/,
    );
    expect(read({ default: { remindBefore: [1] } })).toThrow(/DEADLINE_POLICIES: default: Unrecognized key/);
    expect(() => readConfig({ ...env, DEADLINE_POLICIES: "{deny}" })).toThrow(
      /DEADLINE_POLICIES is not JSON/,
    );
  });
});
