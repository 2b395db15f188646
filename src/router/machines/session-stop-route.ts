// `POST /api/sessions/:id/stop`: the person ends a session of theirs. The session is marked
// stopped (no more messages), its open cards are withdrawn on every device, and the machine that
// started its agent, if any, is told to end the process.
import { Hono } from "hono";
import { OWNER } from "../../protocol/access/access";
import { SessionId } from "../../protocol/session/session";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";
import { machinesStub } from "./machines-stub";

export const sessionStopRoute = new Hono<AppEnv>();

sessionStopRoute.post("/:id/stop", async (c) => {
  if (c.get("agentKey")) throw new HttpError("forbidden", "An agent key may not stop sessions");
  requireInPerson(c, "stop sessions");
  const person = personOf(c);
  const id = SessionId.safeParse(c.req.param("id"));
  if (!id.success) throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
  const creator = await sessionStub(c.env, id.data).creator();
  if (creator === null) throw new HttpError("unknown_session", "No such session");
  if (creator !== person) throw new HttpError("forbidden", "This session belongs to another person");
  return c.json(await stopSession(c.env, person, id.data));
});

/** Stops, withdraws and tells the machine; each step is idempotent, so a repeated stop is harmless. */
export async function stopSession(
  env: Env,
  person: string,
  sessionId: string,
): Promise<{ stopped: true; withdrawn: number; machineTold: boolean }> {
  const session = sessionStub(env, sessionId);
  const stopped = await session.fromInbox(
    { kind: "person", person },
    { type: "command", command: { type: "cancel" } },
  );
  if (!stopped.ok && stopped.error.code !== "nothing_to_cancel") throw HttpError.from(stopped.error);
  const snapshot = await session.snapshot(OWNER);
  if (!snapshot.ok) throw HttpError.from(snapshot.error);
  let withdrawn = 0;
  for (const card of snapshot.result.pending) {
    const interactionId = card.interactionId ?? card.toolCallId;
    const outcome = await session.command({ type: "withdraw_interaction", interactionId }, null, OWNER);
    if (outcome.ok) withdrawn++;
  }
  const machine = await machinesStub(env, person).stop(sessionId);
  return { stopped: true, withdrawn, machineTold: machine?.told ?? false };
}
