// Share-link helpers for the access tests: minting through the real route, and reading errors.
import { expect } from "vitest";
import type { MintedLink } from "../../../src/protocol/access";
import { api, type CreatedSession } from "../../helpers/session-harness";

export async function mintLink(
  session: CreatedSession,
  body: Record<string, unknown> = {},
): Promise<MintedLink> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/links`, {
    token: session.token,
    body,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as MintedLink;
}

export async function expectError(response: Response, status: number, code: string): Promise<void> {
  const body = (await response.json()) as { error?: { code: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
}
