import { describe, expect, it } from "vitest";
import type { MessageParam } from "../../../src/model/model-client";
import type { SessionObject } from "../../../src/session/session-object";
import { SqlTranscriptStore } from "../../../src/session/stores/transcript-store";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

describe("rewriting the stored transcript", () => {
  it("replaces every message in order, string content as a text block, and appending continues after it", async () => {
    const session = await createSession();
    const messages = await runInDurableObject<SessionObject, MessageParam[]>(
      stubOf(session),
      (_instance, state) => {
        const store = new SqlTranscriptStore(new SqlCounter(state.storage.sql), () => 1, { top: () => null });
        store.append("user", [{ type: "text", text: "old" }]);
        store.append("assistant", [{ type: "text", text: "old reply" }]);
        store.rewrite([
          { role: "user", content: "summary and question" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "current_time", input: {} }],
          },
        ]);
        store.append("user", [{ type: "tool_result", tool_use_id: "toolu_1", content: "noon" }]);
        return store.messages();
      },
    );
    expect(messages).toEqual([
      { role: "user", content: [{ type: "text", text: "summary and question" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "current_time", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "noon" }] },
    ]);
  });
});
