// What a page of another site can make the person's browser send is refused before anything is
// read or changed: writes and WebSocket upgrades from a foreign Origin, `Sec-Fetch-Site:
// cross-site`, and bodies not declared JSON. Clients that send no Origin keep working.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { captureSecurityLog } from "../../helpers/security-log-capture";
import { api, createSession, ORIGIN } from "../../helpers/session-harness";
import { expectError } from "./access-fixtures";

const FOREIGN = "http://127.0.0.1:9999";

describe("requests a page of another site could send", () => {
  const { lines } = captureSecurityLog();

  it("refuses a POST whose Origin is another origin with 403 cross_origin, creating nothing", async () => {
    const response = await api("POST", "/api/sessions", { body: {}, headers: { origin: FOREIGN } });
    await expectError(response, 403, "cross_origin");
    expect(lines()).toContainEqual(expect.objectContaining({ event: "cross_origin_refused" }));
  });

  it("refuses an Origin of null (a sandboxed frame, a data: page)", async () => {
    await expectError(
      await api("POST", "/api/sessions", { body: {}, headers: { origin: "null" } }),
      403,
      "cross_origin",
    );
  });

  it("refuses a WebSocket upgrade from another origin, to a session and to the inbox", async () => {
    const session = await createSession();
    const headers = { origin: FOREIGN, upgrade: "websocket" };
    await expectError(
      await api("GET", `/api/sessions/${session.sessionId}/ws?token=${session.token}`, { headers }),
      403,
      "cross_origin",
    );
    await expectError(await api("GET", "/api/inbox/ws", { headers }), 403, "cross_origin");
  });

  it("refuses any request marked Sec-Fetch-Site: cross-site, a read included", async () => {
    const headers = { "sec-fetch-site": "cross-site" };
    await expectError(await api("GET", "/api/inbox", { headers }), 403, "cross_origin");
    await expectError(await api("POST", "/api/sessions", { body: {}, headers }), 403, "cross_origin");
  });

  it("accepts the deployment's own origin and same-origin fetches", async () => {
    const headers = { origin: ORIGIN, "sec-fetch-site": "same-origin" };
    const response = await api("POST", "/api/sessions", { body: {}, headers });
    expect(response.status).toBe(201);
  });

  it("accepts clients that send no Origin (the CLI, bridges, curl)", async () => {
    expect((await api("POST", "/api/sessions", { body: {} })).status).toBe(201);
  });

  it("answers a text/plain POST 415 unsupported_media_type and changes nothing", async () => {
    const session = await createSession();
    const path = `/api/sessions/${session.sessionId}/messages`;
    const body = JSON.stringify({ text: "sent as a form would" });
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const response = await api("POST", path, {
        token: session.token,
        rawBody: body,
        headers: { "content-type": type },
      });
      await expectError(response, 415, "unsupported_media_type");
    }
    const snapshot = (await (
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
    ).json()) as {
      transcript?: unknown[];
      lastSeq?: number;
    };
    expect(JSON.stringify(snapshot)).not.toContain("sent as a form would");
  });

  it("answers a body sent without any Content-Type 415", async () => {
    // Bytes, not a string: fetch labels a string body text/plain itself.
    const body = new TextEncoder().encode("{}");
    const response = await exports.default.fetch(`${ORIGIN}/api/sessions`, { method: "POST", body });
    await expectError(response, 415, "unsupported_media_type");
  });

  it("accepts application/json with a charset", async () => {
    const response = await api("POST", "/api/sessions", {
      rawBody: "{}",
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(response.status).toBe(201);
  });
});
