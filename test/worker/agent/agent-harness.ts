import { expect } from "vitest";
import type { ModelRequest } from "../../../src/model/model-client";
import { api, type CreatedSession, type Device } from "../../helpers/session-harness";
import { eventsOf, modelRequests, sqlRows, stubOf } from "../../helpers/session-object-probe";
import { expectValidTranscript } from "../../helpers/valid-transcript";

export { eventsOf, expectValidTranscript, modelRequests, sqlRows, stubOf };

/** The last request the scripted model received. */
export async function lastRequest(session: Pick<CreatedSession, "sessionId">): Promise<ModelRequest> {
  const requests = await modelRequests(session);
  const last = requests[requests.length - 1];
  if (!last) throw new Error("the model received no request");
  return last;
}

export interface SessionStatsBody {
  rowsWritten: number;
  rowsRead: number;
  events: number;
  eventsByType: Record<string, number>;
  messages: number;
}

export async function stats(session: CreatedSession): Promise<SessionStatsBody> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/stats`, { token: session.token });
  expect(response.status).toBe(200);
  return (await response.json()) as SessionStatsBody;
}

/** Text of every text block the user messages of a request carry, in order. */
export function userTexts(request: ModelRequest): string[] {
  const texts: string[] = [];
  for (const message of request.messages) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") texts.push(message.content);
    else for (const block of message.content) if (block.type === "text") texts.push(block.text);
  }
  return texts;
}

/** The streamed text of the session so far, joined. */
export function streamedText(device: Device): string {
  return eventsOf(device, "text_delta")
    .map((e) => e.data.text)
    .join("");
}
