import { describe, expect, it } from "vitest";
import { decisionsCsv } from "../../../src/inbox/decision-store";
import { DECISION_CSV_COLUMNS, type DecisionRecord } from "../../../src/protocol/inbox/decisions";

const record = (overrides: Partial<DecisionRecord>): DecisionRecord => ({
  decisionId: 1,
  at: Date.UTC(2026, 10, 26, 12, 0, 0),
  sessionId: "a".repeat(32),
  interactionId: "ext_1",
  agent: "Claude Code",
  kind: "approval",
  toolName: "Bash",
  inputDigest: "0".repeat(64),
  outcome: "approved",
  decidedBy: { kind: "grant", label: "Bash(ls)", id: "grant_1", device: null },
  sessionExists: true,
  ...overrides,
});

describe("decisionsCsv", () => {
  it("opens with the columns and writes one line per record", () => {
    const lines = decisionsCsv([
      record({}),
      record({
        decisionId: 2,
        outcome: "denied",
        decidedBy: { kind: "person", label: "ana", id: "ana", device: "page" },
      }),
    ]).split("\r\n");
    expect(lines[0]).toBe(DECISION_CSV_COLUMNS.join(","));
    expect(lines[1]).toBe(
      `1,2026-11-26T12:00:00.000Z,${"a".repeat(32)},Claude Code,approval,Bash,${"0".repeat(64)},approved,Bash(ls),,grant_1,grant,grant_1,,`,
    );
    expect(lines[2]).toContain(",denied,ana,page,,person,ana,");
    expect(lines[3]).toBe("");
  });

  it("names the person each decider counts as: an invited approver is their own, a link its minter", () => {
    const approver = `approver:${"b".repeat(32)}`;
    const lines = decisionsCsv([
      record({
        decidedBy: { kind: "person", label: "Bo", id: approver, device: "page", personId: approver },
      }),
      record({
        decidedBy: {
          kind: "link",
          label: "Phone (inbox link 1a2b3c4d)",
          id: "c".repeat(32),
          device: "page",
          personId: "ana",
        },
      }),
    ]).split("\r\n");
    expect(lines[1]?.endsWith(`,person,${approver},,${approver}`)).toBe(true);
    expect(lines[2]?.endsWith(`,link,${"c".repeat(32)},,ana`)).toBe(true);
  });

  it("quotes commas and quotes, and defuses what a spreadsheet would run as a formula", () => {
    const csv = decisionsCsv([
      record({
        agent: '=HYPERLINK("http://evil")',
        decidedBy: { kind: "person", label: "Doe, Jane", id: "doe", device: "api" },
      }),
    ]);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain(`"Doe, Jane"`);
  });
});
