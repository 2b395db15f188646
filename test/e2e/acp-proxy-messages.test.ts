// `parley acp` between a test editor and the real claude-agent-acp: a message the person sends in
// Parley while the agent is idle is prompted on the editor's session, the editor is shown it as the
// user's message, the model gets it as the next user turn, and every device learns it was delivered.
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { removeSandbox, spawnParleyAcp, TestEditor } from "./acp-harness";
import { buildBridges, externalSession, hasClaude, mintAgentKey, sandbox } from "./claude-code-harness";
import { startModelServer } from "./claude-model-server";

const baseUrl = () => inject("baseUrl");
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const said = (text: string) => ({ content: [{ type: "text" as const, text }] });

describe.skipIf(!hasClaude)("parley acp between an editor and its agent", () => {
  beforeAll(() => buildBridges());

  it("prompts the idle agent with the person's message, showing it to the editor as the user's", {
    timeout: 240_000,
  }, async () => {
    const model = await startModelServer([said("Hello from the editor's turn."), said("Checked the logs.")]);
    const box = await sandbox(model);
    const agentKey = await mintAgentKey(baseUrl(), "acp proxy messages e2e");
    const proxy = spawnParleyAcp(box, ["--server", baseUrl(), "--agent-key", agentKey]);
    cleanups.push(async () => {
      await proxy.stop();
      await model.close();
      await removeSandbox(box);
    });
    const editor = new TestEditor(proxy.child);
    cleanups.push(() => editor.close());
    const acpSession = await editor.open(box.cwd);
    expect((await editor.prompt("Say hello.")).stopReason).toBe("end_turn");
    const session = await externalSession(baseUrl(), acpSession, "Claude Agent");

    const sent = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Please check the logs" }),
    });
    expect(sent.status).toBe(202);
    const { messageId } = ((await sent.json()) as { result: { messageId: string } }).result;
    const texts = (kind: string) =>
      editor.updates
        .map((notification) => notification.update)
        .filter((update) => update.sessionUpdate === kind)
        .map((update) => {
          const content = "content" in update ? update.content : null;
          return content && !Array.isArray(content) && content.type === "text" ? content.text : "";
        })
        .join("");
    await expect.poll(() => texts("agent_message_chunk"), { timeout: 90_000 }).toContain("Checked the logs.");
    expect(texts("user_message_chunk")).toBe("Please check the logs");
    const asked = model.mainRequests().map((request) => JSON.stringify(request.body.messages));
    expect(asked.findIndex((messages) => messages.includes("Please check the logs"))).toBe(asked.length - 1);

    // The acknowledgement follows the progress posted before it, so it is read until it lands.
    const delivered = async () => {
      const events = (await (
        await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/events?after=0`, {
          headers: { authorization: `Bearer ${session.token}` },
        })
      ).json()) as { events: Array<{ type: string; data: unknown }> };
      return events.events.filter((event) => event.type === "message_delivered").map((e) => e.data);
    };
    await expect.poll(delivered).toEqual([{ messageId, bridge: "parley acp" }]);
  });
});
