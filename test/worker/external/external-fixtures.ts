// Helpers for the external-agent tests: creating an external session through the real route,
// opening cards as its agent, and letting a card's deadline pass on the one alarm.
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect } from "vitest";
import type { CreateExternalSessionResponse } from "../../../src/protocol/external/external";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, asOperator } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

export type ExternalSession = CreateExternalSessionResponse;

export async function createExternal(
  agent: Record<string, unknown> = {},
  expectedStatus = 201,
): Promise<ExternalSession> {
  // An external session is its creator's: the operator's here (no request without a credential is a person).
  const response = await asOperator("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code", ...agent } },
  });
  expect(response.status, await response.clone().text()).toBe(expectedStatus);
  return (await response.json()) as ExternalSession;
}

export const approvalRequest = (command = "touch made.txt") => ({
  toolName: "Bash",
  input: { command },
  risk: "execute",
});

export const questionRequest = () => ({
  questions: [
    {
      question: "Which colour?",
      header: "Colour",
      multiSelect: false,
      options: [
        { label: "Red", description: "Warm" },
        { label: "Blue", description: "Cool" },
      ],
    },
  ],
});

/** Opens a card as the agent; returns the HTTP response. */
export function openCard(
  session: ExternalSession,
  body: Record<string, unknown>,
  token = session.agentToken,
) {
  return api("POST", `/api/sessions/${session.sessionId}/interactions`, { token, body });
}

export async function openApproval(session: ExternalSession, extra: Record<string, unknown> = {}) {
  const response = await openCard(session, { kind: "approval", request: approvalRequest(), ...extra });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { interactionId: string }).interactionId;
}

export function readCard(
  session: ExternalSession,
  interactionId: string,
  query = "",
  token = session.agentToken,
) {
  return api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}${query}`, { token });
}

/** Moves every pending card's deadline into the past and runs the object's alarm. */
export async function passDeadlines(session: ExternalSession): Promise<void> {
  const stub = stubOf(session.sessionId);
  await runInDurableObject<SessionObject, void>(stub, async (_instance, state) => {
    state.storage.sql.exec(`UPDATE interactions SET deadline = ? WHERE status = 'pending'`, Date.now() - 1);
    await state.storage.setAlarm(Date.now());
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}
