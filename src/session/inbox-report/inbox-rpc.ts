// A person's Inbox object as a session (and the Worker) reaches it: its stub, typed by its contract
// (src/objects/contracts/inbox.ts), so the inbox builds on the session's parts, never the other way round.
import type { InboxRpc } from "../../objects/contracts/inbox";

export type {
  ChatAnswerer,
  ChatAsk,
  ChatMessageSession,
  InboxChatAccount,
  InboxRpc,
} from "../../objects/contracts/inbox";

export function inboxStub(env: Env, person: string): InboxRpc {
  return env.INBOXES.get(env.INBOXES.idFromName(person));
}
