// Opening an inbox WebSocket the Worker admitted: hello, the replay after its cursor within the
// credential's replay budget, then live frames as the inbox broadcasts them.
import type { ReplayBudget } from "../objects/replay-budget";
import type { InboxStore } from "./inbox-store";
import type { InboxStreamRequest } from "./inbox-stream-request";

const REPLAY_PAGE = 500;

export function openInboxSocket(
  ctx: DurableObjectState,
  opened: InboxStreamRequest,
  hello: { type: "hello" },
  store: Pick<InboxStore, "framesAfter">,
  replayBudget: ReplayBudget,
): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  ctx.acceptWebSocket(server, [opened.tag]);
  // Hello and replay are sent synchronously after accepting, so no live event slips between.
  server.send(JSON.stringify(hello));
  for (let cursor = opened.after; ; ) {
    const frames = store.framesAfter(cursor, REPLAY_PAGE);
    replayBudget.send(server, opened.tag, frames);
    const last = frames[frames.length - 1];
    if (!last || frames.length < REPLAY_PAGE) break;
    cursor = (JSON.parse(last) as { seq: number }).seq;
  }
  return new Response(null, { status: 101, webSocket: client });
}
