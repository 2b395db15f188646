// A bridge's wait for its card (`parley/client`'s waitForResolution) against the real Worker: it is
// long-poll reads of the card only, so a read the network drops mid-wait, or one a restart of Parley
// ends (then 503 while it starts), is made again and the answer given meanwhile still reaches the
// agent. The network is cut at its edge: the fetch the client is given. A restart of the real server
// mid-wait is the e2e claude-code-restart and mcp-restart tests'.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ExternalAgent } from "../../../client/external-agent";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { api } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { createExternal, type ExternalSession, openApproval } from "./external-fixtures";

/** Resolves once the session's object holds `count` long-poll reads. */
function untilWaiting(session: ExternalSession, count: number): Promise<void> {
  return runInDurableObject(stubOf(session.sessionId), (instance: SessionObject) =>
    inside(instance).untilWaitingReads(count),
  );
}

async function approve(session: ExternalSession, interactionId: string): Promise<void> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/respond`, {
    token: session.token,
    body: { interactionId, response: { decision: "approve" } },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/**
 * The Worker as the client reaches it, counting the card's long-poll reads; `onRead(n, forwarded,
 * cut)` may end the n-th read its own way (a dropped connection) while the server still holds it.
 */
function network(onRead: (n: number, forwarded: Promise<Response>, cut: () => void) => Promise<Response>) {
  const reads: string[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    const url = String(input);
    if (!/\/interactions\/[^/?]+\?wait=/.test(url)) return exports.default.fetch(url, init);
    reads.push(url);
    const line = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, line.signal]) : line.signal;
    const forwarded = exports.default.fetch(url, { ...init, signal });
    return onRead(reads.length, forwarded, () => {
      forwarded.catch(() => {});
      line.abort(new TypeError("fetch failed: the connection was reset"));
    });
  };
  return { reads, fetchImpl };
}

describe("a bridge's wait for its card", () => {
  it("reads the card again when the connection drops mid-wait, and returns the answer given meanwhile", async () => {
    const session = await createExternal();
    const { reads, fetchImpl } = network(async (n, forwarded, cut) => {
      if (n > 1) return forwarded;
      // The server holds the first read; the connection to it is then lost.
      await untilWaiting(session, 1);
      cut();
      throw new TypeError("fetch failed: the connection was reset");
    });
    const agent = await ExternalAgent.connect({
      link: session.agentLink,
      name: "Claude Code",
      fetch: fetchImpl,
    });
    const interactionId = await openApproval(session);

    const waited = agent.waitForResolution(interactionId);
    await expect.poll(() => reads.length).toBe(2);
    await approve(session, interactionId);

    await expect(waited).resolves.toMatchObject({
      interactionId,
      status: "resolved",
      resolution: { outcome: "approved" },
    });
    expect(reads).toHaveLength(2);
    expect(reads.every((url) => url.includes(`/interactions/${interactionId}?wait=`))).toBe(true);
  });

  it("outlasts Parley going down mid-wait and starting again: the answer given meanwhile is found after", async () => {
    const session = await createExternal();
    let answered: Promise<void> | null = null;
    const { reads, fetchImpl } = network(async (n, forwarded, cut) => {
      if (n === 1) {
        // Parley goes down: the held read's connection closes, and the person answers meanwhile.
        await untilWaiting(session, 1);
        cut();
        answered = approve(session, interactionId);
        await answered;
        throw new TypeError("fetch failed: socket hang up");
      }
      forwarded.then((response) => response.body?.cancel()).catch(() => {});
      // Still starting: the next read is answered 503 and made again.
      if (n === 2)
        return Response.json({ error: { code: "unavailable", message: "Starting" } }, { status: 503 });
      return exports.default.fetch(reads[n - 1] ?? "", {
        headers: { authorization: `Bearer ${session.agentToken}` },
      });
    });
    const agent = await ExternalAgent.connect({
      link: session.agentLink,
      name: "Claude Code",
      fetch: fetchImpl,
    });
    const interactionId = await openApproval(session);

    const waited = await agent.waitForResolution(interactionId);

    expect(answered).not.toBeNull();
    expect(waited).toMatchObject({ interactionId, status: "resolved", resolution: { outcome: "approved" } });
    expect(reads).toHaveLength(3);
  });

  it("ends with the signal's reason when the agent gives up while a read is held", async () => {
    const session = await createExternal();
    const { fetchImpl } = network((_n, forwarded) => forwarded);
    const agent = await ExternalAgent.connect({
      link: session.agentLink,
      name: "Claude Code",
      fetch: fetchImpl,
    });
    const interactionId = await openApproval(session);
    const giveUp = new AbortController();

    const waited = agent.waitForResolution(interactionId, giveUp.signal);
    await untilWaiting(session, 1);
    giveUp.abort(new Error("the agent gave up"));

    await expect(waited).rejects.toThrow("the agent gave up");
  });
});
