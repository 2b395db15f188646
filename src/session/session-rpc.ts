// A session's Durable Object as the Worker reaches it: its stub, typed by its contract
// (src/objects/contracts/session.ts), so the compiler checks both ends without a cast.
import type { SessionRpc } from "../objects/contracts/session";

export function sessionStub(env: Env, sessionId: string): SessionRpc {
  return env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
}
