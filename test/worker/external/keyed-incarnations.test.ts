// A keyed external session that was deleted never comes back with its old credentials: the key
// finds a new incarnation, with a new id, owner token and agent link, and the old ones stay dead.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { api } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { createExternal } from "./external-fixtures";

const DAY = 24 * 60 * 60 * 1000;

describe("a keyed external session deleted and created again", () => {
  it("refuses the old owner token and the old agent link, and answers to the new ones", async () => {
    const key = `incarnation-${crypto.randomUUID()}`;
    const first = await createExternal({ key });
    expect((await api("GET", `/api/sessions/${first.sessionId}`, { token: first.token })).status).toBe(200);
    const deleted = await api("DELETE", `/api/sessions/${first.sessionId}`, { token: first.token });
    expect(deleted.status).toBe(200);

    const second = await createExternal({ key });
    expect(second.created).toBe(true);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.token).not.toBe(first.token);

    for (const old of [first.token, first.agentToken]) {
      const read = await api("GET", `/api/sessions/${first.sessionId}`, { token: old });
      expect(read.status).toBe(404);
      // Nor does an old credential open anything of the new incarnation.
      expect((await api("GET", `/api/sessions/${second.sessionId}`, { token: old })).status).toBe(403);
    }
    const opened = await api("POST", `/api/sessions/${first.sessionId}/interactions`, {
      token: first.agentToken,
      body: { kind: "approval", request: { toolName: "Bash", input: { command: "ls" }, risk: "execute" } },
    });
    expect(opened.status).toBe(404);
    expect((await api("GET", `/api/sessions/${second.sessionId}`, { token: second.token })).status).toBe(200);
    expect((await api("GET", `/api/sessions/${second.sessionId}`, { token: second.agentToken })).status).toBe(
      200,
    );

    // The key still finds the live incarnation.
    const found = await createExternal({ key }, 200);
    expect(found.sessionId).toBe(second.sessionId);
  });

  it("that expired refuses its old owner token and agent link after the key creates it again", async () => {
    const key = `expired-${crypto.randomUUID()}`;
    const first = await createExternal({ key });
    // Idle past the retention (30 days by default): the one alarm erases it.
    await runInDurableObject<SessionObject, void>(stubOf(first.sessionId), async (instance, state) => {
      state.storage.sql.exec(`UPDATE events SET at = at - ?`, 31 * DAY);
      state.storage.sql.exec(
        `UPDATE meta SET value = CAST(CAST(value AS INTEGER) - ? AS TEXT) WHERE key IN ('created_at', 'retention_warned_for')`,
        31 * DAY,
      );
      inside(instance).forgetCopies();
      await instance.alarm();
    });
    expect((await api("GET", `/api/sessions/${first.sessionId}`, { token: first.token })).status).toBe(404);

    const second = await createExternal({ key });
    expect(second.sessionId).not.toBe(first.sessionId);
    for (const old of [first.token, first.agentToken]) {
      expect((await api("GET", `/api/sessions/${first.sessionId}`, { token: old })).status).toBe(404);
      expect((await api("GET", `/api/sessions/${second.sessionId}`, { token: old })).status).toBe(403);
    }
  });
});
