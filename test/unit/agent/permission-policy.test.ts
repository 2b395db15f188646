import { describe, expect, it } from "vitest";
import { decide, type PermissionDecision } from "../../../src/agent/permission-policy";
import type { PermissionMode } from "../../../src/protocol/session/session";
import type { ToolRisk } from "../../../src/tools/define-tool";

const RISKS: ToolRisk[] = ["read", "edit", "network", "execute"];

function behaviorOf(
  mode: PermissionMode,
  risk: ToolRisk,
  rules: string[] = [],
): PermissionDecision["behavior"] {
  return decide({ name: `${risk}_tool`, risk }, mode, new Set(rules)).behavior;
}

describe("decide", () => {
  it("lets read-only tools run in every mode", () => {
    for (const mode of ["default", "acceptEdits", "plan", "bypassPermissions"] as const) {
      expect(behaviorOf(mode, "read")).toBe("allow");
    }
  });

  it("asks about every tool that is not read-only in default mode", () => {
    expect(RISKS.map((risk) => behaviorOf("default", risk))).toEqual(["allow", "ask", "ask", "ask"]);
  });

  it("auto-allows edit tools in acceptEdits mode but still asks about network and execute tools", () => {
    expect(RISKS.map((risk) => behaviorOf("acceptEdits", risk))).toEqual(["allow", "allow", "ask", "ask"]);
  });

  it("allows everything in bypassPermissions mode", () => {
    expect(RISKS.map((risk) => behaviorOf("bypassPermissions", risk))).toEqual([
      "allow",
      "allow",
      "allow",
      "allow",
    ]);
  });

  it("denies every tool that is not read-only in plan mode, with a result that names the mode and the tool", () => {
    expect(RISKS.map((risk) => behaviorOf("plan", risk))).toEqual(["allow", "deny", "deny", "deny"]);
    const decision = decide({ name: "notes_write", risk: "edit" }, "plan", new Set());
    if (decision.behavior !== "deny") throw new Error("expected a denial");
    expect(decision.message).toContain('"plan"');
    expect(decision.message).toContain("notes_write");
    expect(decision.message).toMatch(/read-only/);
  });

  it("honours an always-allow rule for that tool only, in default and acceptEdits modes", () => {
    expect(behaviorOf("default", "network", ["network_tool"])).toBe("allow");
    expect(behaviorOf("acceptEdits", "execute", ["execute_tool"])).toBe("allow");
    expect(behaviorOf("default", "network", ["some_other_tool"])).toBe("ask");
  });

  it("lets plan mode win over an always-allow rule, because planning must not act", () => {
    expect(behaviorOf("plan", "edit", ["edit_tool"])).toBe("deny");
  });
});
