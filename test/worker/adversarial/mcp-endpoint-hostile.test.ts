// The session's remote MCP endpoint under hostile input: raw bodies, JSON-RPC shapes with bad
// methods and arguments, and forged credentials. Each is refused without a server error, nothing is
// stored, and the paused card still takes its real answer. (The route is registered for every
// method, so the route-by-route suite cannot reach it.)
import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connect, ORIGIN } from "../../helpers/session-harness";
import { pausedSession, storageFingerprint } from "../session-api/channel-fixtures";
import { hostileSegment, hostileText, hostileToken, hostileValue, PENDING_ID } from "./hostile-input";

const SEED = Number(process.env.FC_SEED ?? 20261125);

/** JSON-RPC requests a client might send by mistake or on purpose; never a well-formed approve call. */
const hostileRpc = fc
  .record({
    jsonrpc: fc.oneof(fc.constant("2.0"), hostileValue),
    id: fc.oneof(fc.integer(), hostileSegment, hostileValue),
    method: fc.oneof(fc.constantFrom("initialize", "tools/list", "tools/call", "ping"), hostileSegment),
    params: fc.oneof(
      hostileValue,
      fc.record({ name: fc.oneof(fc.constant("approve"), hostileSegment), arguments: hostileValue }),
    ),
  })
  .filter((rpc) => {
    const args = (rpc.params as { arguments?: unknown } | null)?.arguments;
    return !(
      typeof args === "object" &&
      args !== null &&
      typeof (args as { tool_name?: unknown }).tool_name === "string"
    );
  })
  .map((rpc) => JSON.stringify(rpc));

async function post(sessionId: string, body: string, token: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body,
  });
}

describe("the remote MCP endpoint under hostile input", () => {
  it("refuses hostile bodies and credentials without a server error, stores nothing, and still takes the real answer", async () => {
    const session = await pausedSession();
    const before = await storageFingerprint(session.sessionId);

    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileText, hostileRpc), async (body) => {
        const response = await post(session.sessionId, body, session.token);
        const text = await response.text();
        expect(response.status, `${body.slice(0, 200)} → ${text.slice(0, 200)}`).toBeLessThan(500);
        // Whatever the endpoint answered, it opened no card: a success can only be a protocol reply.
        if (response.ok) expect(text).not.toContain('"behavior"');
      }),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );

    await fc.assert(
      fc.asyncProperty(hostileToken, async (token) => {
        const response = await post(
          session.sessionId,
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          token,
        );
        await response.body?.cancel();
        expect([401, 403]).toContain(response.status);
      }),
      { seed: SEED + 1, numRuns: 60, endOnFailure: true },
    );

    expect(await storageFingerprint(session.sessionId)).toBe(before);
    const owner = await connect(session);
    expect(await owner.request({ type: "approve", toolCallId: PENDING_ID })).toMatchObject({ ok: true });
    await owner.waitForDone();
    owner.close();
  }, 120_000);
});
