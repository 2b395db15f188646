// Shared pieces of the MCP worker tests: sessions that use the test servers (started by the global
// setup), and the control endpoint that kills or restarts them.
import { inject } from "vitest";
import { api, type CreatedSession, connect, createSession, type Device } from "../../helpers/session-harness";

export const controlUrl = (): string => inject("mcpControlUrl");

export async function control(method: "GET" | "POST", route: string): Promise<unknown> {
  const response = await fetch(`${controlUrl()}${route}`, { method });
  if (!response.ok) throw new Error(`control ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A scripted session that uses `servers`, with a device already connected. */
export async function mcpSession(
  servers: string[],
  script: unknown[],
  extra: Record<string, unknown> = {},
): Promise<{ session: CreatedSession; device: Device }> {
  const session = await createSession({ mcpServers: servers, script, ...extra });
  const device = await connect(session, { device: "laptop" });
  return { session, device };
}

/** Answers the form `interactionId` over HTTP, as the device `device` would. */
export async function respond(
  session: CreatedSession,
  interactionId: string,
  response: unknown,
  device: string,
) {
  const reply = await api("POST", `/api/sessions/${session.sessionId}/respond`, {
    token: session.token,
    body: { interactionId, response },
    headers: { "x-device-id": device },
  });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}
