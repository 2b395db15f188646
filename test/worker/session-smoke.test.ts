import { describe, expect, it } from "vitest";
import { connect, createSession, textReply, toolReply } from "../helpers/session-harness";

describe("a scripted session", () => {
  it("streams a reply after a tool round-trip to a connected device", async () => {
    const session = await createSession({
      permissionMode: "default",
      script: [toolReply([{ name: "current_time", input: {} }], "Checking."), textReply("All done now.")],
    });
    const device = await connect(session);
    const ack = await device.request({ type: "send_message", text: "hello" });
    expect(ack.ok).toBe(true);
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    const text = device.events
      .filter((e) => e.type === "text_delta")
      .map((e) => (e.type === "text_delta" ? e.data.text : ""))
      .join("");
    expect(text).toBe("Checking.All done now.");
    expect(device.event("tool_result")?.data.isError).toBe(false);
  });
});
