// What the reply tests read back: the messages a session heard, from its own event log.
import { expect } from "vitest";
import type { CreatedSession } from "../../helpers/session-harness";
import type { Person } from "../inbox/inbox-fixtures";

export interface HeardMessage {
  text?: string;
  by?: string;
  deviceId?: string;
}

/** The session's `user_message` events, read with its owner token. */
export async function userMessages(person: Person, session: CreatedSession): Promise<HeardMessage[]> {
  const page = await person.api("GET", `/api/sessions/${session.sessionId}/events?after=0`, {
    token: session.token,
  });
  expect(page.status).toBe(200);
  const { events } = (await page.json()) as { events: { type: string; data: HeardMessage }[] };
  return events.filter((event) => event.type === "user_message").map((event) => event.data);
}
