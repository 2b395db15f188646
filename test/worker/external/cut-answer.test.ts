// A bridge's call whose answer Parley starts but never finishes (a restart mid-answer): the client
// reads that as a failed call and makes it again, never as an answer of `null`. Found in the browser
// suite, where `parley hook` across a restart once failed with "Cannot read properties of null
// (reading 'interactionId')". The answer is cut at the network's edge: the fetch the client is given.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ExternalAgent } from "../../../client/external-agent";
import { api } from "../../helpers/session-harness";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { approvalRequest, createExternal } from "./external-fixtures";

/** The Worker as the client reaches it; the first answer to `cut` starts 200 and then breaks off. */
function cutting(cut: RegExp) {
  let cuts = 0;
  const calls: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = String(input);
    calls.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
    const response = await exports.default.fetch(url, init);
    if (cuts > 0 || !cut.test(url)) return response;
    cuts += 1;
    const text = await response.text();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
        controller.error(new TypeError("terminated: other side closed"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { calls, fetchImpl };
}

describe("a bridge's call whose answer is cut short", () => {
  it("opens its card again (by its key) and gets the one card, not null", async () => {
    const session = await createExternal();
    const { calls, fetchImpl } = cutting(/\/interactions$/);
    const agent = await ExternalAgent.connect({
      link: session.agentLink,
      name: "Claude Code",
      fetch: fetchImpl,
    });

    const opened = await agent.openInteraction({
      kind: "approval",
      request: approvalRequest(),
      key: "call-1",
    });

    expect(opened.interactionId).toEqual(expect.any(String));
    expect(calls.filter((call) => call.startsWith("POST") && call.endsWith("/interactions"))).toHaveLength(2);
    const stored = JSON.parse(await storageFingerprint(session.sessionId)) as { interactions: unknown[] };
    expect(stored.interactions).toHaveLength(1);
  });

  it("reads an answered card again when the read's answer breaks off, and returns the answer", async () => {
    const session = await createExternal();
    const { calls, fetchImpl } = cutting(/\/interactions\/[^/?]+\?wait=/);
    const agent = await ExternalAgent.connect({
      link: session.agentLink,
      name: "Claude Code",
      fetch: fetchImpl,
    });
    const { interactionId } = await agent.openInteraction({ kind: "approval", request: approvalRequest() });
    const answered = await api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: { interactionId, response: { decision: "approve" } },
    });
    expect(answered.status, await answered.clone().text()).toBe(200);

    const card = await agent.waitForResolution(interactionId);

    expect(card).toMatchObject({ interactionId, status: "resolved", resolution: { outcome: "approved" } });
    expect(calls.filter((call) => call.startsWith("GET") && call.includes(interactionId))).toHaveLength(2);
  });
});
