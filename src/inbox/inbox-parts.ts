// The parts of a person's Inbox object, built once from its storage, env and clock: the stores it
// projects into, the deliveries its one alarm sends, and the sources of the deadline loop it runs.
import { configFor } from "../config";
import { InboxEmail } from "../email/inbox-email";
import { EventStreams } from "../objects/event-streams";
import { MetaStore } from "../objects/meta-store";
import type { ObjectClock } from "../objects/object-clock";
import type { ObjectStores } from "../objects/parley-object";
import { SpentTickets } from "../objects/spent-tickets";
import { DecisionStore } from "./decision-store";
import { GrantStore } from "./grant-store";
import { InboxAgentKeys } from "./inbox-agent-keys";
import { InboxChat } from "./inbox-chat";
import { chatSendingPorts } from "./inbox-chat-senders";
import { inboxDeadlineSources } from "./inbox-deadline-sources";
import { InboxLinks } from "./inbox-links";
import { InboxPeople } from "./inbox-people";
import { InboxPush } from "./inbox-push";
import { migrateInbox } from "./inbox-schema";
import { InboxStore } from "./inbox-store";

/**
 * Builds every part on the object's counted SQL and adds their deadlines to its loop;
 * `closeExpired` ends an expired link's streams and sockets.
 */
export function buildInboxParts(
  ctx: DurableObjectState,
  env: Env,
  clock: ObjectClock,
  { sql, deadlines }: ObjectStores,
  closeExpired: (linkId: string) => void,
) {
  migrateInbox(ctx.storage.sql);
  const config = configFor(env);
  const decisionStore = new DecisionStore(sql, clock.now, config.decisionRetentionMs);
  const grantStore = new GrantStore(sql, clock.now);
  const store = new InboxStore(sql, clock.now, decisionStore);
  const links = new InboxLinks(sql, clock.now);
  const agentKeys = new InboxAgentKeys(sql, clock.now);
  const invited = new InboxPeople(sql, clock.now, ctx, (person) => store.view(person));
  const tickets = new SpentTickets(new MetaStore(sql), clock.now);
  const push = new InboxPush({
    sql,
    config,
    now: clock.now,
    linkIsLive: (linkId) => links.isLive(linkId),
    waiting: () => store.openCards(),
    rearm: () => deadlines.rearm(),
  });
  const chat = new InboxChat(sql, clock.now);
  const emails = new InboxEmail({
    sql,
    now: clock.now,
    config,
    binding: env.EMAIL,
    deliveries: push.deliveries,
    approvers: () => invited.store.contacts(),
  });
  const streams = new EventStreams(store, config.sseHeartbeatMs);
  deadlines.add(
    ...inboxDeadlineSources({
      push,
      chat,
      links,
      chatPorts: chatSendingPorts(env),
      closeExpired,
    }),
    emails.outbox,
  );
  return {
    decisionStore,
    grantStore,
    store,
    links,
    agentKeys,
    invited,
    tickets,
    push,
    chat,
    emails,
    streams,
  };
}
