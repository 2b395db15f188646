// HTTP calls of invited approvers (docs/guide-approvers.md#invited-approvers): the person's invites,
// list and removal; redeeming an invite; and an approver's view of, and answers to, an inviter's cards.
import { call } from "../../client/session-api";
import type { AnsweringView } from "../../src/people/answering-view";
import type { PeopleView } from "../../src/people/people-terms";

/** Who sends: the gateway token or an approver credential, or none (Access signs the browser's requests). */
function request<T>(credential: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (credential) headers.authorization = `Bearer ${credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return call<T>(new URL(`/api/people${path}`, location.origin).toString(), init);
}

export interface InviteAnswer {
  inviteId: string;
  url: string;
  expiresAt: number;
}

export const invitePerson = (credential: string | null, body: Record<string, unknown>) =>
  request<InviteAnswer>(credential, "POST", "/invites", body);

export const listPeople = (credential: string | null) => request<PeopleView>(credential, "GET", "");

export const removePerson = (credential: string | null, id: string) =>
  request<unknown>(credential, "DELETE", `/${encodeURIComponent(id)}`);

export interface Redeemed {
  inviter: string;
  personId: string;
  name: string;
  credential: string | null;
}

/** Redeems an invite: sent with no credential of the person's, so it is never theirs. */
export const redeemInvite = (invite: string) =>
  request<Redeemed>(null, "POST", "/invites/redeem", { invite });

const answering = (inviter: string) => `/answering/${encodeURIComponent(inviter)}`;

export const fetchAnswering = (credential: string | null, inviter: string) =>
  request<AnsweringView>(credential, "GET", answering(inviter));

export const answerFor = (
  credential: string | null,
  inviter: string,
  card: { sessionId: string; interactionId: string },
  response: unknown,
) =>
  request<{ ok: true; result: unknown }>(
    credential,
    "POST",
    `${answering(inviter)}/cards/${card.sessionId}/${card.interactionId}/respond`,
    { response },
  );

export const answeringTicket = (credential: string | null, inviter: string) =>
  request<{ ticket: string }>(credential, "POST", `${answering(inviter)}/ws-ticket`);
