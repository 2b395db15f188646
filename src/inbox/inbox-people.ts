// The inviter's side of invited approvers in their Inbox object: the people table, each approver's
// scoped view, and their sockets — which get only that view (never the inbox's own frames), again
// after every change, and are closed the moment the approver is removed.
import { loadShellReader } from "../grants/shell-reader";
import { SOCKET_CLOSE } from "../objects/socket-access";
import { type AnsweringView, answeringView } from "../people/answering-view";
import type { InboxView } from "../protocol/inbox/inbox";
import type { SqlCounter } from "../storage/sql-counter";
import { APPROVERS_TAG, approverTag } from "./approver-tag";
import { PeopleStore } from "./people-store";

/** What an approver socket keeps: whose cards, and which approver (hibernation-safe). */
type Attachment = { inviter: string; approverId: string };

export class InboxPeople {
  readonly store: PeopleStore;

  constructor(
    sql: SqlCounter,
    now: () => number,
    private readonly ctx: DurableObjectState,
    private readonly view: (person: string) => InboxView,
  ) {
    this.store = new PeopleStore(sql, now);
  }

  /** The inviter's cards approver `approverId` answers; null once they are removed. */
  async scoped(inviter: string, approverId: string): Promise<AnsweringView | null> {
    const approver = this.store.live(approverId);
    if (!approver) return null;
    // A rule scope reads a Bash command with the shell parser, loaded on first use.
    if (approver.scope.scope === "rule") await loadShellReader();
    return answeringView(inviter, approver, this.view(inviter));
  }

  /** Accepts an approver's socket (already admitted) and sends it its view. */
  async openSocket(inviter: string, approverId: string): Promise<Response> {
    const view = await this.scoped(inviter, approverId);
    if (!view)
      return Response.json({ code: "forbidden", message: "This approver was removed" }, { status: 403 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [approverTag(approverId), APPROVERS_TAG]);
    server.serializeAttachment({ inviter, approverId } satisfies Attachment);
    server.send(JSON.stringify({ type: "hello", view }));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Whether a socket is an approver's (the inbox's own frames never go to one). */
  isApprovers(ws: WebSocket): boolean {
    return this.ctx.getTags(ws).includes(APPROVERS_TAG);
  }

  /** Sends every approver socket its view as it is now (after a change to the inbox). */
  async refresh(): Promise<void> {
    for (const ws of this.ctx.getWebSockets(APPROVERS_TAG)) {
      try {
        const { inviter, approverId } = ws.deserializeAttachment() as Attachment;
        const view = await this.scoped(inviter, approverId);
        if (view) ws.send(JSON.stringify({ type: "view", view }));
        else ws.close(SOCKET_CLOSE.revoked, "This approver was removed");
      } catch (error) {
        console.error("InboxObject.refresh approver socket", error);
      }
    }
  }

  /** Removes an approver or an invite; the removed approver's sockets close at once. */
  remove(id: string) {
    const removed = this.store.remove(id);
    if (removed?.approverId) {
      for (const ws of this.ctx.getWebSockets(approverTag(removed.approverId))) {
        try {
          ws.close(SOCKET_CLOSE.revoked, "This approver was removed");
        } catch {
          // Already closing.
        }
      }
    }
    return removed?.removed ?? null;
  }
}
