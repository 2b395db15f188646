// `parley/client`'s messages() against the real Worker: the iterator resumes after the last message
// it yielded when a read is lost on the network, so nothing is repeated or skipped, and it ends
// when the person stops the session. The network is cut at its edge: the fetch the client is given.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ExternalAgent } from "../../../client/external-agent";
import { api } from "../../helpers/session-harness";
import { createExternal, type ExternalSession } from "./external-fixtures";

async function sent(session: ExternalSession, text: string): Promise<string> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
    token: session.token,
    body: { text },
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { result: { messageId: string } }).result.messageId;
}

describe("an external agent's messages()", () => {
  it("resumes after the last message it yielded when a read is lost, without repeating one", async () => {
    const session = await createExternal();
    const reads: string[] = [];
    let dropNextRead = false;
    const network: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.includes("/messages?")) {
        reads.push(new URL(url).searchParams.get("after") ?? "");
        if (dropNextRead) {
          dropNextRead = false;
          throw new TypeError("fetch failed: the connection was reset");
        }
      }
      return exports.default.fetch(url, init);
    };
    const agent = await ExternalAgent.connect({
      link: session.agentLink,
      name: "Claude Code",
      fetch: network,
    });
    const first = await sent(session, "first");
    const messages = agent.messages({ waitSeconds: 1 });
    expect((await messages.next()).value).toMatchObject({ messageId: first, text: "first" });

    dropNextRead = true;
    const second = await sent(session, "second");
    expect((await messages.next()).value).toMatchObject({ messageId: second, text: "second" });
    // The lost read and the one after it both asked for what follows the first message.
    expect(reads.slice(1)).toEqual([first, first]);

    await agent.delivered(second, "test bridge");
    const stopped = await api("POST", `/api/sessions/${session.sessionId}/cancel`, { token: session.token });
    expect(stopped.status).toBe(200);
    expect(await messages.next()).toEqual({ done: true, value: undefined });
    expect(reads.at(-1)).toBe(second);
  });
});
