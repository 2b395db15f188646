// Where an external agent runs, as its session's snapshot (and so its page) says it: the folder its
// bridge reported at creation, else the first a card reported, and never a folder that is not one.
import { describe, expect, it } from "vitest";
import type { SessionSnapshot } from "../../../src/protocol/session/session";
import { api, asOperator, connect } from "../../helpers/session-harness";
import { createExternal, openApproval } from "./external-fixtures";

const uniqueKey = () => `cc-where-${crypto.randomUUID()}`;

async function snapshotOf(session: { sessionId: string; token: string }): Promise<SessionSnapshot> {
  const response = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
  expect(response.status).toBe(200);
  return (await response.json()) as SessionSnapshot;
}

describe("where an external agent runs", () => {
  it("is the folder its bridge gave at creation, in the snapshot and the hello of every device", async () => {
    const session = await createExternal({ key: uniqueKey(), cwd: "/home/dev/shop" });
    expect((await snapshotOf(session)).agent).toEqual({
      kind: "external",
      name: "Claude Code",
      title: null,
      folder: "/home/dev/shop",
    });
    const device = await connect(session);
    expect(device.hello?.snapshot.agent).toMatchObject({ folder: "/home/dev/shop" });
    device.close();
    // A card's own folder does not move it: the creation's stands.
    await openApproval(session, { cwd: "/tmp/elsewhere" });
    expect((await snapshotOf(session)).agent?.folder).toBe("/home/dev/shop");
  });

  it("is unknown until the agent's first card reports its folder, then that folder", async () => {
    const session = await createExternal({ key: uniqueKey() });
    const before = (await snapshotOf(session)).agent;
    expect(before).not.toHaveProperty("folder");
    expect(before).not.toHaveProperty("machine");
    await openApproval(session, { cwd: "/srv/app" });
    expect((await snapshotOf(session)).agent).toMatchObject({ name: "Claude Code", folder: "/srv/app" });
  });

  it("refuses a folder that is relative, multi-line or too long, naming agent.cwd and creating nothing", async () => {
    for (const cwd of ["src/app", "/home/dev\n/etc", `/${"a".repeat(4096)}`]) {
      const key = uniqueKey();
      const response = await asOperator("POST", "/api/sessions", {
        body: { agent: { kind: "external", name: "Claude Code", key, cwd } },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: "invalid_input", message: expect.stringContaining("agent.cwd") },
      });
      // Nothing was made: the same key now creates a new session.
      expect((await createExternal({ key })).created).toBe(true);
    }
  });
});
