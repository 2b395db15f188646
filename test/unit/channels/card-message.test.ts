// A card as a chat message: a URL card's page is a link button next to its choices.
import { describe, expect, it } from "vitest";
import { cardMessage } from "../../../src/channels/card-message";
import type { InboxCard } from "../../../src/protocol";
import { ONE_PERSON_ONLY } from "../../../src/protocol/cards/approval-words";

const url: InboxCard = {
  sessionId: "0".repeat(32),
  interactionId: "toolu_url",
  toolCallId: "toolu_url",
  toolName: "mcp__auth__login",
  kind: "url",
  request: { url: "https://example.com/login", message: "Sign in to the service" },
  createdAt: 0,
  expiresAt: 1_000,
};

function buttonsOf(card: unknown): { type: string; label: string; url?: string; value?: string }[] {
  const found: { type: string; label: string; url?: string; value?: string }[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const element = node as { type?: string; label?: string; children?: unknown[] };
    if ((element.type === "button" || element.type === "link-button") && element.label)
      found.push(element as { type: string; label: string });
    for (const child of element.children ?? []) walk(child);
  };
  walk(card);
  return found;
}

describe("card message", () => {
  it("shows a URL card's page as a link button, then I've finished and Decline", () => {
    const buttons = buttonsOf(cardMessage({ card: url, ref: 7, openUrl: "https://parley.test/#/inbox" }));
    expect(buttons.map((b) => [b.type, b.label])).toEqual([
      ["link-button", "Open the page"],
      ["button", "I've finished"],
      ["button", "Decline"],
      ["link-button", "Open in Parley"],
    ]);
    expect(buttons[0]?.url).toBe("https://example.com/login");
    expect(buttons[1]?.value).toBe("7.uf");
  });

  it("never makes a link button of a page that is not http(s)", () => {
    const sneaky = { ...url, request: { url: "javascript:alert(1)" } };
    const buttons = buttonsOf(cardMessage({ card: sneaky, ref: 7, openUrl: "https://parley.test/#/inbox" }));
    expect(buttons.map((b) => b.label)).not.toContain("Open the page");
  });

  it("says a call needs a second person the deployment does not have, beside its count", () => {
    const push: InboxCard = {
      ...url,
      interactionId: "ext_push",
      toolCallId: "ext_push",
      toolName: "Bash",
      kind: "approval",
      request: { toolName: "Bash", input: { command: "git push" } },
      approvals: { needed: 2, given: 1, by: ["operator"], unreachable: ONE_PERSON_ONLY },
    };
    const shown = JSON.stringify(cardMessage({ card: push, ref: 7, openUrl: "https://parley.test/#/inbox" }));
    expect(shown).toContain(`1 of 2 approvals · ${ONE_PERSON_ONLY}`);
  });

  it("offers Approve on a call shown whole, and only See all on one it must shorten, head and tail", () => {
    const call = (command: string): InboxCard => ({
      ...url,
      interactionId: "toolu_long",
      toolCallId: "toolu_long",
      toolName: "Bash",
      kind: "approval",
      request: { toolName: "Bash", input: { command } },
    });
    const whole = cardMessage({
      card: call(`echo ${"a".repeat(1_000)}`),
      ref: 8,
      openUrl: "https://parley.test/",
    });
    expect(buttonsOf(whole).map((b) => b.label)).toEqual(expect.arrayContaining(["Approve", "Deny"]));

    const long = cardMessage({
      card: call(`echo ${"a".repeat(3_000)} && rm -rf ~`),
      ref: 8,
      openUrl: "https://parley.test/",
    });
    expect(buttonsOf(long).map((b) => [b.label, b.value])).toEqual([["See all", "8.sa"]]);
    const shown = JSON.stringify(long);
    expect(shown).toContain("echo aaa");
    expect(shown).toContain("aaa && rm -rf ~");
    expect(shown).toContain(" … ");
  });

  it("counts a card's length as the platform shows it: escapes that lengthen it can take its one-tap answer away", () => {
    const card: InboxCard = {
      ...url,
      kind: "approval",
      toolName: "Bash",
      request: { toolName: "Bash", input: { command: "<".repeat(1_000) } },
    };
    const plain = cardMessage({ card, ref: 9, openUrl: "https://parley.test/" });
    expect(buttonsOf(plain).map((b) => b.label)).toContain("Approve");
    // As Slack shows it, each `<` is four characters (`&lt;`): too long to show whole.
    const escaped = cardMessage(
      { card, ref: 9, openUrl: "https://parley.test/" },
      { cost: (t) => t.replaceAll("<", "&lt;").length },
    );
    expect(buttonsOf(escaped).map((b) => b.label)).toEqual(["See all"]);
  });

  it("spells out bidi and zero-width characters in the title, the request and the button labels", () => {
    const question: InboxCard = {
      ...url,
      kind: "question",
      toolName: "AskUserQuestion",
      request: {
        questions: [
          {
            question: "Deploy \u202eyadot\u202c?",
            header: "Go",
            options: [
              { label: "Ye\u200bs", description: "" },
              { label: "No", description: "" },
            ],
            multiSelect: false,
          },
        ],
      },
    };
    const shown = JSON.stringify(cardMessage({ card: question, ref: 3, openUrl: "https://parley.test/" }));
    expect(shown).not.toMatch(/[\u202a-\u202e\u200b]/);
    expect(shown).toContain("\\\\u202eyadot\\\\u202c");
    expect(
      buttonsOf(cardMessage({ card: question, ref: 3, openUrl: "https://parley.test/" })).map((b) => b.label),
    ).toContain("Ye\\u200bs");
  });
});
