import type { PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { cardForPermission, outcomeForCard, rejection } from "../../../../bin/acp/acp-permissions";
import type { ExternalInteraction } from "../../../../client/client";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";

const ALL: PermissionOption[] = [
  { optionId: "yes-always", name: "Always Allow", kind: "allow_always" },
  { optionId: "yes", name: "Allow", kind: "allow_once" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
  { optionId: "no-always", name: "Never", kind: "reject_always" },
];

function resolved(outcome: string, response: unknown): ExternalInteraction {
  return {
    interactionId: "i1",
    kind: "approval",
    key: "k",
    status: "resolved",
    request: {},
    createdAt: 0,
    expiresAt: 1,
    resolution: { outcome: outcome as "approved", response, by: "phone", at: 1 },
  };
}

const request = (
  overrides: Partial<RequestPermissionRequest["toolCall"]> = {},
): RequestPermissionRequest => ({
  sessionId: "s1",
  options: ALL.slice(0, 3),
  toolCall: {
    toolCallId: "toolu_1",
    title: "`touch a.txt`",
    kind: "execute",
    rawInput: { command: "touch a.txt" },
    ...overrides,
  },
});

describe("an ACP permission request as a card", () => {
  it("shows the title, kind, raw input and the always-choices the agent offers, named by the call's tool", () => {
    const card = cardForPermission(request());
    expect(card).toEqual({
      kind: "approval",
      request: {
        toolName: "Bash",
        input: { command: "touch a.txt" },
        risk: "execute",
        description: "`touch a.txt`",
        acp: { kind: "execute", title: "`touch a.txt`", allowAlways: true, rejectAlways: false },
      },
    });
  });

  it("shows diffs as diffs, text as text, terminals by id, and the locations", () => {
    const card = cardForPermission(
      request({
        kind: "edit",
        content: [
          { type: "diff", path: "/p/a.ts", oldText: "old", newText: "new" },
          { type: "diff", path: "/p/new.ts", newText: "fresh" },
          { type: "content", content: { type: "text", text: "why" } },
          { type: "terminal", terminalId: "term-1" },
        ],
        locations: [{ path: "/p/a.ts", line: 7 }, { path: "/p/new.ts" }],
      }),
    );
    expect(card.request.risk).toBe("edit");
    expect(card.request.acp).toMatchObject({
      content: [
        { type: "diff", path: "/p/a.ts", oldText: "old", newText: "new" },
        { type: "diff", path: "/p/new.ts", oldText: null, newText: "fresh" },
        { type: "text", text: "why" },
        { type: "terminal", terminalId: "term-1" },
      ],
      locations: [{ path: "/p/a.ts", line: 7 }, { path: "/p/new.ts" }],
    });
  });

  it("maps ACP kinds to risks: reads read, edits edit, fetches reach the network, the rest execute", () => {
    const risk = (kind: RequestPermissionRequest["toolCall"]["kind"]) =>
      cardForPermission(request({ kind })).request.risk;
    expect([risk("read"), risk("search"), risk("delete"), risk("fetch"), risk("other"), risk(null)]).toEqual([
      "read",
      "read",
      "edit",
      "network",
      "execute",
      "execute",
    ]);
  });

  it("opens as a valid approval card, even with no title", () => {
    const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);
    const card = cardForPermission(request({ title: null, kind: null, rawInput: undefined }));
    expect(card.request.toolName).toBe("acp:other");
    expect(registry.open("approval", card.request).ok).toBe(true);
  });
});

describe("a resolved card as the ACP outcome", () => {
  it("selects allow_once for Approve and allow_always for Always allow", () => {
    expect(outcomeForCard(ALL, resolved("approved", { decision: "approve", remember: false }))).toEqual({
      outcome: "selected",
      optionId: "yes",
    });
    expect(outcomeForCard(ALL, resolved("approved", { decision: "approve", remember: true }))).toEqual({
      outcome: "selected",
      optionId: "yes-always",
    });
  });

  it("selects reject_once for Deny and reject_always for Always deny", () => {
    expect(outcomeForCard(ALL, resolved("denied", { decision: "deny", reason: null }))).toEqual({
      outcome: "selected",
      optionId: "no",
    });
    expect(
      outcomeForCard(ALL, resolved("denied", { decision: "deny", reason: null, remember: true })),
    ).toEqual({ outcome: "selected", optionId: "no-always" });
  });

  it("never allows on a timeout, a withdrawal, or an approval with edited arguments", () => {
    const no = { outcome: "selected", optionId: "no" };
    expect(outcomeForCard(ALL, resolved("timed_out", null))).toEqual(no);
    expect(outcomeForCard(ALL, resolved("withdrawn", null))).toEqual(no);
    expect(
      outcomeForCard(ALL, resolved("approved", { decision: "approve", remember: false, updatedInput: {} })),
    ).toEqual(no);
  });

  it("cancels the request when the agent offers no reject option to select", () => {
    expect(rejection(ALL.slice(0, 2))).toEqual({ outcome: "cancelled" });
    expect(outcomeForCard(ALL.slice(0, 2), resolved("denied", { decision: "deny", reason: null }))).toEqual({
      outcome: "cancelled",
    });
  });
});
