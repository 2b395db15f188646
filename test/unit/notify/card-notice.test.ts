import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";
import { openedNotice as opened, resolvedNotice as resolved } from "../../../src/notify/card-notice";

// The kind words the card (its summary); the notice adds the time left, the outcome and the link.
const kinds = createInteractionRegistry(BUILTIN_INTERACTIONS);
type Card = Parameters<typeof opened>[0];
type Resolved = Parameters<typeof resolved>[0];
const summaryOf = (card: Pick<Card, "kind" | "toolName" | "request">) =>
  kinds.summary(card.kind, card.toolName, card.request);
const openedNotice = (card: Card, ctx: typeof context) => opened(card, summaryOf(card), ctx);
const resolvedNotice = (card: Resolved, ctx: typeof context) => resolved(card, summaryOf(card), ctx);

/** A question request as the model would send it (the kind reads only valid ones). */
function questions(...texts: string[]) {
  return {
    questions: texts.map((question) => ({
      question,
      header: "Pick",
      options: [
        { label: "One", description: "" },
        { label: "Two", description: "" },
      ],
      multiSelect: false,
    })),
  };
}

const context = {
  sessionId: "0123456789abcdef0123456789abcdef",
  seq: 7,
  sessionUrl: "https://parley.test/#/s/0123456789abcdef0123456789abcdef?token=t",
  now: 1_000_000,
};

function card(kind: string, request: unknown, left = 600_000 - 3) {
  return {
    toolCallId: "toolu_1",
    kind,
    toolName: "Tool",
    request,
    createdAt: context.now,
    expiresAt: context.now + left,
  };
}

describe("card notices for pushes and webhooks", () => {
  it("words a question with its first question, how many more, and the time left in whole minutes", () => {
    const notice = openedNotice(card("question", questions("Which plan?", "When?")), context);
    expect(notice).toMatchObject({
      change: "opened",
      title: "The agent has a question",
      body: "Which plan? (+1 more) — 10 minutes left to answer",
      url: `${context.sessionUrl}&card=toolu_1`,
      deadline: context.now + 600_000 - 3,
    });
  });

  it("words an approval with the tool and its description, and seconds under a minute", () => {
    const notice = openedNotice(
      card(
        "approval",
        { toolName: "notes_write", description: "Save a note", input: {}, risk: "edit" },
        42_400,
      ),
      context,
    );
    expect(notice).toMatchObject({
      title: "Approve notes_write?",
      body: "Save a note — 42 seconds left to answer",
    });
  });

  it("words any other kind from its message or title, without knowing the kind", () => {
    const notice = openedNotice(card("form", { message: "Details for the booking" }), context);
    expect(notice).toMatchObject({
      title: "The agent is waiting (form)",
      body: "Details for the booking — 10 minutes left to answer",
    });
    expect(openedNotice(card("plan", 42), context).body).toBe(
      "Tool is waiting for you — 10 minutes left to answer",
    );
  });

  it("says how and where a card was resolved, and shortens long text to its head and tail", () => {
    const notice = resolvedNotice(
      {
        ...card("question", questions(`${"x".repeat(400)}?`)),
        outcome: "answered",
        resolvedBy: "phone",
      },
      context,
    );
    expect(notice.title).toBe("Answered on phone");
    expect(notice.body).toHaveLength(240);
    expect(notice.body).toMatch(/^x+ … x+\?$/);
    expect(notice.card).toMatchObject({ outcome: "answered", resolvedBy: "phone" });
    const timedOut = resolvedNotice(
      { ...card("approval", {}), outcome: "timed_out", resolvedBy: null },
      context,
    );
    expect(timedOut.title).toBe("Timed out");
  });

  it("names who answered when the server knows them", () => {
    const notice = resolvedNotice(
      {
        ...card("approval", {}),
        outcome: "approved",
        resolvedBy: "phone",
        answeredBy: "ana@example.com",
      },
      context,
    );
    expect(notice.title).toBe("Approved by ana@example.com");
    expect(notice.card).toMatchObject({ resolvedBy: "phone", answeredBy: "ana@example.com" });
  });

  it("titles a resolved card with its kind's own words, as the page's receipt does", () => {
    const notice = resolvedNotice(
      { ...card("form", {}), outcome: "denied", resolvedBy: "phone", receipt: "Declined" },
      context,
    );
    expect(notice.title).toBe("Declined on phone");
  });

  it("shows an agent's words in a push literally: bidi and zero-width characters spelled out, markup left as typed", () => {
    const hostile = "[Open in Parley](https://evil.example/x) *ok* \u202erm -rf ~\u202c ap\u200bprove";
    const notice = openedNotice(
      card("approval", { toolName: "Bash\u202e", description: hostile, input: {}, risk: "execute" }, 60_000),
      context,
    );
    expect(notice.title).toBe("Approve Bash\\u202e?");
    expect(notice.body).toBe(
      "[Open in Parley](https://evil.example/x) *ok* \\u202erm -rf ~\\u202c ap\\u200bprove — 1 minute left to answer",
    );
    for (const text of [notice.title, notice.body])
      expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
  });

  it("keeps the head and the tail of a long description in a push, and the time left whole", () => {
    const description = `Runs ${"a".repeat(500)} then rm -rf ~`;
    const notice = openedNotice(
      card("approval", { toolName: "Bash", description, input: {}, risk: "execute" }, 60_000),
      context,
    );
    expect(notice.body).toHaveLength(240);
    expect(notice.body).toMatch(/^Runs a+ … a+ then rm -rf ~ — 1 minute left to answer$/);
  });
});
