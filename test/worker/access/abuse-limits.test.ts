import { describe, expect, it } from "vitest";
import { MAX_SOCKETS_PER_SESSION, SOCKET_COMMAND_BURST } from "../../../src/protocol/limits";
import { connect, createSession, type Device } from "../../helpers/session-harness";
import { advanceClock } from "../../helpers/session-object-probe";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { createFromAddress, expectError, inOneLimiterWindow } from "./access-fixtures";

describe("abuse limits", () => {
  it("caps open sockets per session, and frees a place when one closes", async () => {
    const session = await createSession();
    const devices: Device[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) devices.push(await connect(session));
    await expect(connect(session)).rejects.toThrow(/429.*too_many_sockets/);
    expect(devices.every((device) => !device.closed)).toBe(true);
    devices.pop()?.close();
    await devices[0]?.until(() => true, "a moment");
    const again = await connect(session);
    expect(again.hello).not.toBeNull();
    for (const device of [...devices, again]) device.close();
  });

  it("answers a socket that sends too fast with rate_limited acks, keeps it open and changes nothing", async () => {
    const session = await createSession();
    const device = await connect(session);
    const before = await storageFingerprint(session.sessionId);
    const burst = SOCKET_COMMAND_BURST + 6;
    for (let i = 0; i < burst; i++) device.sendRaw(JSON.stringify({ type: "cancel", requestId: `r${i}` }));
    await device.until(() => device.acks.length >= burst, `${burst} acks`);
    const limited = device.acks.filter((ack) => ack.error?.code === "rate_limited");
    const served = device.acks.filter((ack) => ack.error?.code === "nothing_to_cancel");
    expect(served.length).toBeGreaterThanOrEqual(SOCKET_COMMAND_BURST);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(served.length + limited.length).toBe(burst);
    // Refused frames still name their request, so a client can tell which ones to resend.
    expect(limited.every((ack) => ack.requestId?.startsWith("r"))).toBe(true);
    expect(device.closed).toBe(false);
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    // The allowance refills: a second later the socket is served again.
    await advanceClock(session, { by: 1_000 });
    expect(await device.request({ type: "cancel" })).toMatchObject({ error: { code: "nothing_to_cancel" } });
    device.close();
  });

  it("limits session creation per client IP with the Workers Rate Limiting binding", async () => {
    const run = await inOneLimiterWindow(async () => {
      const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await createFromAddress(ip)).status);
      return {
        statuses,
        twentyFirst: await createFromAddress(ip),
        other: await createFromAddress("203.0.113.9"),
      };
    });
    expect(run.statuses).toEqual(Array(20).fill(201));
    await expectError(run.twentyFirst, 429, "rate_limited");
    expect(run.other.status).toBe(201);
  });
});
