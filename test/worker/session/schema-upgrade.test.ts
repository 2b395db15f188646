// A session paused under the first round's schema (version 2: interactions keyed by their tool call,
// no agent frames, no notifications, no MCP) is upgraded in place when the new code wakes it: the
// open question is still shown, is answered, and the turn carries on with a valid transcript.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../../src/session/stores/schema";
import { runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { expectValidTranscript } from "../../helpers/valid-transcript";
import {
  answeredResult,
  COLOUR_QUESTION,
  colourQuestion,
  lastMessage,
  modelRequests,
  post,
  stubOf,
  tableRows,
  toolResultsOf,
} from "../interactions/interaction-fixtures";

const ASK = "toolu_ask_before_upgrade";

/**
 * Takes a live database back to what version 2 wrote: each statement undoes one change of
 * migrations 3 onwards, and prompt events lose the `interactionId` that version 2 did not record.
 */
function downgradeToVersion2(sql: SqlStorage): void {
  for (const statement of [
    `DROP TABLE card_escalations`,
    `ALTER TABLE push_subscriptions DROP COLUMN actions`,
    `DROP TABLE agent_messages`,
    `DROP TABLE card_approvals`,
    `ALTER TABLE interactions DROP COLUMN decider`,
    `DROP TABLE card_deadlines`,
    `DROP TABLE tool_state`,
    `ALTER TABLE interactions DROP COLUMN opened_by_link`,
    `DROP TABLE outbox`,
    `ALTER TABLE interactions DROP COLUMN answered_by`,
    `DROP INDEX interactions_by_external_key`,
    `ALTER TABLE interactions DROP COLUMN external_key`,
    `ALTER TABLE interactions DROP COLUMN frame_id`,
    `ALTER TABLE tool_results DROP COLUMN images`,
    `DROP TABLE mcp_calls`,
    `DROP TABLE mcp_servers`,
    `DROP INDEX deliveries_due`,
    `DROP TABLE deliveries`,
    `DROP TABLE push_subscriptions`,
    `DROP INDEX messages_by_frame`,
    `ALTER TABLE messages DROP COLUMN frame_id`,
    `DROP INDEX frames_active`,
    `DROP TABLE frames`,
    `DROP INDEX interactions_by_tool_call`,
    `ALTER TABLE interactions DROP COLUMN tool_call_id`,
    `ALTER TABLE interactions RENAME COLUMN id TO tool_call_id`,
    `UPDATE meta SET value = '2' WHERE key = 'schema_version'`,
  ]) {
    sql.exec(statement);
  }
  const prompts = sql
    .exec<{ seq: number; frame: string }>(`SELECT seq, frame FROM events WHERE type = 'question_prompt'`)
    .toArray();
  for (const { seq, frame } of prompts) {
    const event = JSON.parse(frame) as { data: Record<string, unknown> };
    delete event.data.interactionId;
    sql.exec(`UPDATE events SET frame = ? WHERE seq = ?`, JSON.stringify(event), seq);
  }
}

describe("a session stored by the first round's schema", () => {
  it("is upgraded when it wakes, still shows its open question, and resumes the turn once it is answered", async () => {
    const session = await createSession({
      script: [
        toolReply([{ name: "AskUserQuestion", id: ASK, input: colourQuestion() }], "Let me ask."),
        textReply("Green it is."),
      ],
    });
    const stub = stubOf(session);
    const laptop = await connect(session, { device: "laptop" });
    await laptop.request({ type: "send_message", text: "Pick a theme colour with me" });
    await laptop.waitForEvent("session_status", (e) => e.data.status === "awaiting_input");
    laptop.close();

    await runInDurableObject(stub, (_instance, state) => downgradeToVersion2(state.storage.sql));
    expect(await tableRows(session, `SELECT name FROM sqlite_master WHERE name = 'frames'`)).toEqual([]);
    await evictDurableObject(stub, { webSockets: "close" });

    // Waking runs migrations 3 onwards over the stored rows.
    const phone = await connect(session, { device: "phone" });
    expect(await tableRows(session, `SELECT value FROM meta WHERE key = 'schema_version'`)).toEqual([
      { value: String(SCHEMA_VERSION) },
    ]);
    expect(await tableRows(session, `SELECT id, tool_call_id, status FROM interactions`)).toEqual([
      { id: ASK, tool_call_id: ASK, status: "pending" },
    ]);
    expect(await tableRows(session, `SELECT DISTINCT frame_id FROM messages`)).toEqual([
      { frame_id: "main" },
    ]);
    expect(phone.hello?.snapshot.pending).toEqual([
      expect.objectContaining({ toolCallId: ASK, kind: "question", status: "pending" }),
    ]);
    const replayed = phone.events.find((e) => e.type === "question_prompt");
    expect(replayed?.data).toMatchObject({ toolCallId: ASK });

    const answered = await post(
      session,
      "submit-answers",
      { toolCallId: ASK, answers: { [COLOUR_QUESTION]: "Green" } },
      "phone",
    );
    expect(answered).toMatchObject({ status: 200, body: { ok: true } });
    await phone.waitForDone();
    // The model of the woken instance made one call: the first turn's, resumed from the stored transcript.
    const requests = await modelRequests(stub);
    expect(requests).toHaveLength(1);
    const resumed = requests[0]?.messages ?? [];
    expect(resumed.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(toolResultsOf(lastMessage(requests[0]))).toEqual([
      { toolUseId: ASK, content: answeredResult([[COLOUR_QUESTION, "Green"]]), isError: false },
    ]);
    expectValidTranscript(resumed);
    expect(
      phone.events
        .filter((e) => e.type === "text_delta")
        .map((e) => e.data.text)
        .join(""),
    ).toContain("Green it is.");
    phone.close();
  });
});
