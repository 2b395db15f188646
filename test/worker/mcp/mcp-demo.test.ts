// The offline demo model's MCP tour against server-everything: approve the tool, fill in its form
// from another device, and hear what the server made of it.
import { describe, expect, it } from "vitest";
import { api, connect, createSession } from "../../helpers/session-harness";
import { eventsOf, post } from "../interactions/interaction-fixtures";

describe("the demo model's MCP tour", () => {
  it("calls server-everything's elicitation tool, whose form a second device fills in", async () => {
    const session = await createSession({ mcpServers: ["everything"] });
    const laptop = await connect(session, { device: "laptop" });
    const phone = await connect(session, { device: "phone" });
    await laptop.request({ type: "send_message", text: "show me MCP" });

    const approval = await phone.waitForEvent("approval_required", undefined, 15_000);
    expect(approval.data.toolName).toBe("mcp__everything__trigger-elicitation-request");
    expect((await post(session, "approve", { toolCallId: approval.data.toolCallId }, "phone")).status).toBe(
      200,
    );
    const form = await phone.waitForEvent("interaction_prompt", (e) => e.data.kind === "form", 15_000);
    const answer = await api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: {
        interactionId: form.data.interactionId,
        response: { action: "accept", content: { name: "Demo Person" } },
      },
      headers: { "x-device-id": "phone" },
    });
    expect(answer.status).toBe(200);
    await laptop.waitForDone(1, 15_000);
    const text = eventsOf(laptop, "text_delta")
      .map((e) => e.data.text)
      .join("");
    expect(text).toContain("I'll call mcp__everything__trigger-elicitation-request");
    expect(text).toContain(
      "mcp__everything__trigger-elicitation-request returned: “✅ User provided the requested information!",
    );
    laptop.close();
    phone.close();
  });
});
