// Every delivery a session makes to its person's inbox asks the chat part which accounts get a new
// card and which messages a resolved card edits; a person without chat is answered from what the
// inbox keeps, with no statement, and a link added or a message recorded is seen at once.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { InboxChat } from "../../../src/inbox/inbox-chat";
import { migrateInbox } from "../../../src/inbox/inbox-schema";
import type { InboxEvent } from "../../../src/protocol/inbox/inbox";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

const SESSION = `ses_${"c".repeat(24)}`;

function opened(seq: number, interactionId: string): InboxEvent {
  return {
    seq,
    at: 1_000,
    sessionId: SESSION,
    change: {
      type: "card_opened",
      card: {
        interactionId,
        toolCallId: interactionId,
        kind: "question",
        toolName: "AskUserQuestion",
        request: { questions: [] },
        createdAt: 1_000,
        expiresAt: 9_000,
      },
    },
  };
}

function resolved(seq: number, interactionId: string): InboxEvent {
  return {
    seq,
    at: 1_000,
    sessionId: SESSION,
    change: {
      type: "card_resolved",
      interactionId,
      outcome: "answered",
      resolvedBy: "phone",
      answeredBy: null,
      resolvedAt: 1_000,
    },
  };
}

describe("the chat part of a delivery", () => {
  it("runs no statement for a person without chat, and sees a linked account and its messages at once", () =>
    runInDurableObject(env.INBOXES.get(env.INBOXES.newUniqueId()), (_object, state) => {
      migrateInbox(state.storage.sql);
      const sql = new SqlCounter(state.storage.sql);
      const chat = new InboxChat(sql, () => 1_000);
      expect(chat.onApplied([resolved(1, "toolu_a"), opened(2, "toolu_b")])).toBe(false);

      const statements = sql.statements;
      expect(chat.onApplied([resolved(3, "toolu_b"), opened(4, "toolu_c")])).toBe(false);
      expect(sql.statements).toBe(statements);

      chat.addAccount({
        linkId: "link_chat",
        platform: "telegram",
        accountId: "42",
        name: "Ada",
        threadId: "42",
        origin: "https://parley.test",
      });
      // The new account gets the next card; its resolution finds the message not sent yet.
      expect(chat.onApplied([opened(5, "toolu_d")])).toBe(true);
      chat.onApplied([resolved(6, "toolu_d")]);
      const rows = state.storage.sql
        .exec<{ interaction_id: string; status: string; last_error: string | null }>(
          `SELECT interaction_id, status, last_error FROM chat_deliveries`,
        )
        .toArray();
      expect(rows).toEqual([
        { interaction_id: "toolu_d", status: "failed", last_error: "resolved before sending" },
      ]);
    }));
});
