import { describe, expect, it } from "vitest";
import { AcpProgress, progressToolId } from "../../../../bin/acp/acp-progress";
import { ProgressEvent } from "../../../../src/protocol/external/external";

describe("ACP session updates as Parley progress", () => {
  it("starts a turn with the prompt and ends it idle, with the agent's streamed text as one event", () => {
    const progress = new AcpProgress();
    expect(progress.prompt([{ type: "text", text: "Make the file." }])).toEqual([
      { type: "prompt", text: "Make the file." },
      { type: "status", state: "running" },
    ]);
    for (const text of ["Crea", "ting ", "a.txt."])
      expect(
        progress.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }),
      ).toEqual([]);
    expect(progress.stopped()).toEqual([
      { type: "text", text: "Creating a.txt." },
      { type: "status", state: "idle" },
    ]);
  });

  it("reports a tool call started and finished once, by its title, after the text before it", () => {
    const progress = new AcpProgress();
    progress.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Running." } });
    const started = progress.update({
      sessionUpdate: "tool_call",
      toolCallId: "toolu_1",
      title: "`touch a.txt`",
      kind: "execute",
      rawInput: { command: "touch a.txt" },
    });
    expect(started).toEqual([
      { type: "text", text: "Running." },
      {
        type: "tool_started",
        toolUseId: "toolu_1",
        name: "`touch a.txt`",
        input: { command: "touch a.txt" },
      },
    ]);
    const done = {
      sessionUpdate: "tool_call_update" as const,
      toolCallId: "toolu_1",
      status: "failed" as const,
    };
    expect(progress.update({ ...done, rawOutput: "no such file" })).toEqual([
      {
        type: "tool_finished",
        toolUseId: "toolu_1",
        name: "`touch a.txt`",
        result: "no such file",
        isError: true,
      },
    ]);
    expect(progress.update(done)).toEqual([]);
  });

  it("shows the plan as text and ignores what devices do not show", () => {
    const progress = new AcpProgress();
    expect(
      progress.update({
        sessionUpdate: "plan",
        entries: [
          { content: "Read", priority: "high", status: "completed" },
          { content: "Write", priority: "high", status: "pending" },
        ],
      }),
    ).toEqual([{ type: "text", text: "Plan:\n- [x] Read\n- [ ] Write" }]);
    expect(progress.update({ sessionUpdate: "current_mode_update", currentModeId: "default" })).toEqual([]);
  });

  it("gives tool call ids Parley refuses a form it takes", () => {
    const id = progressToolId("call 1/ä");
    expect(id).toBe("call-1--");
    const event = { type: "tool_started", toolUseId: id, name: "x", input: {} };
    expect(ProgressEvent.safeParse(event).success).toBe(true);
  });
});
