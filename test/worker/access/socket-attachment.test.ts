// A socket's attachment (its device and access) is read back on every command; one that does not
// parse lets the socket do nothing and closes it, and the device reconnects with its access stated afresh.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { storageFingerprint } from "../session-api/channel-fixtures";

/** Overwrites the attachment of every socket of the session, as a corrupt or outdated one would read. */
async function corruptAttachments(sessionId: string, attachment: unknown): Promise<void> {
  await runInDurableObject<SessionObject, void>(stubOf(sessionId), (_instance, state) => {
    for (const ws of state.getWebSockets()) ws.serializeAttachment(attachment);
  });
}

describe("a socket whose attachment cannot be read", () => {
  it.each([
    ["carries only a device id", { deviceId: "phone" }],
    ["names a role that does not exist", { deviceId: "phone", role: "admin", linkId: null }],
    ["claims a link role without a link", { deviceId: "phone", role: "answer", linkId: null }],
    ["names a link whose id is not a link id", { deviceId: "phone", role: "answer", linkId: "x" }],
    [
      "claims the owner's role while naming a link",
      { deviceId: "phone", role: "owner", linkId: "a".repeat(32) },
    ],
    [
      "claims the owner's role with an impossible token version",
      { deviceId: "phone", role: "owner", linkId: null, ownerVersion: 0 },
    ],
    ["is a bare string", "owner"],
    ["has none at all", null],
  ])("is refused and closed when it %s, changing nothing", async (_case, attachment) => {
    const session = await createSession();
    const device = await connect(session, { device: "phone" });
    const before = await storageFingerprint(session.sessionId);
    await corruptAttachments(session.sessionId, attachment);

    const ack = await device.request({ type: "send_message", text: "Hello" });
    expect(ack).toMatchObject({ ok: false, error: { code: "forbidden" } });
    await device.until(() => device.closed, "the socket to close");
    expect(device.closeCode).toBe(1008);
    expect(await storageFingerprint(session.sessionId)).toBe(before);

    const again = await connect(session, { device: "phone" });
    expect(await again.request({ type: "cancel" })).toMatchObject({ error: { code: "nothing_to_cancel" } });
    again.close();
  });
});
