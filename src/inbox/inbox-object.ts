// InboxObject: one Durable Object per person, a projection of their sessions and open cards that
// sessions feed through their outboxes. Never the source of truth: answers go to the sessions.
import type { InboxEmail } from "../email/inbox-email";
import { loadShellReader } from "../grants/shell-reader";
import { sendAtOnce } from "../notify/delivery-rows";
import { APPROVER_HOLDER } from "../notify/subscription-store";
import type { ApproverDeviceChange, ChatAnswerer, ChatAsk, InboxRpc } from "../objects/contracts/inbox";
import { isDue } from "../objects/deadline-source";
import type { EventStreams } from "../objects/event-streams";
import { type ObjectStores, ParleyObject } from "../objects/parley-object";
import { ReplayBudget } from "../objects/replay-budget";
import { SOCKET_CLOSE } from "../objects/socket-access";
import type { SpentTickets } from "../objects/spent-tickets";
import type { NewInvite } from "../people/people-terms";
import { type GrantQuery, type GrantVerdict, type GrantView, NewGrant } from "../protocol/grants/grants";
import type { DecisionPage, DecisionQuery, DecisionRecord } from "../protocol/inbox/decisions";
import { OutboxBatch } from "../protocol/inbox/inbox";
import type { InboxLinkView } from "../protocol/inbox/inbox-links";
import type { AgentKeyCheck, AgentKeyLink, AgentKeyView } from "../protocol/machines/agent-keys";
import type { EmailAction, EmailOutcome } from "../protocol/reach/email";
import type { PushSubscriptionBody } from "../protocol/reach/notify";
import type { ErrorBody } from "../protocol/wire/errors";
import { sessionStub } from "../session/session-rpc";
import { approverIdOf } from "./approver-tag";
import type { DecisionStore } from "./decision-store";
import type { GrantStore } from "./grant-store";
import type { InboxAgentKeys } from "./inbox-agent-keys";
import type { InboxChat, InboxChatAccount } from "./inbox-chat";
import { answerAsAccount } from "./inbox-chat-answers";
import { chatSenderFor, chatSendingPorts, unlinkApproverAccounts } from "./inbox-chat-senders";
import { inboxConnectionRefusal } from "./inbox-connection-caps";
import type { InboxLinks } from "./inbox-links";
import { buildInboxParts } from "./inbox-parts";
import type { InboxPeople } from "./inbox-people";
import type { InboxPush } from "./inbox-push";
import { openInboxSocket } from "./inbox-socket";
import type { InboxStore } from "./inbox-store";
import { PERSON_TAG, readInboxStreamRequest } from "./inbox-stream-request";

const REPLAY_SPENT: ErrorBody = {
  code: "rate_limited",
  message: "Too much of this inbox replayed to this credential in the last minute; connect again later",
};

export class InboxObject extends ParleyObject implements InboxRpc {
  protected readonly name = "InboxObject";
  private readonly store: InboxStore;
  private readonly grantStore: GrantStore;
  private readonly decisionStore: DecisionStore;
  private readonly links: InboxLinks;
  private readonly agentKeys: InboxAgentKeys;
  private readonly invited: InboxPeople;
  private readonly tickets: SpentTickets;
  // Not readonly: a test may swap in a smaller budget to spend it quickly.
  private replayBudget = new ReplayBudget(() => this.clock.now());
  private readonly push: InboxPush;
  /** Verified addresses and the emails it sends (src/email/inbox-email.ts). */
  private readonly emails: InboxEmail;
  private readonly chat: InboxChat;
  /** The counted SQL, and the one alarm at the earliest of the inbox's deadline sources (inbox-deadline-sources.ts). */
  private readonly parts: ObjectStores;
  // INVARIANT: open SSE responses of this instance only; a client whose stream ends reconnects
  // with Last-Event-ID and gets the rest from storage.
  private readonly streams: EventStreams;
  // The one trigger: pushes, chat messages and emails a step stored go once it is done; the alarm retries.
  private readonly sendSoon = sendAtOnce(
    async () => {
      const now = this.clock.now();
      const chat = isDue(this.chat.nextDue(), now) && this.chat.deliverDue(now, chatSendingPorts(this.env));
      await Promise.all([this.push.deliverDue(now), chat, this.emails.outbox.fire(now)]);
    },
    () => this.deadlines.rearm(),
  );

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.parts = this.newStores();
    const parts = buildInboxParts(ctx, env, this.clock, this.parts, (linkId) =>
      this.closeConnections(linkId, SOCKET_CLOSE.expired, "This inbox link has expired"),
    );
    ({
      decisionStore: this.decisionStore,
      grantStore: this.grantStore,
      store: this.store,
      links: this.links,
      agentKeys: this.agentKeys,
      invited: this.invited,
      tickets: this.tickets,
      push: this.push,
      chat: this.chat,
      emails: this.emails,
      streams: this.streams,
    } = parts);
  }

  protected stores(): ObjectStores {
    return this.parts;
  }

  protected override openStreams(): EventStreams {
    return this.streams;
  }

  /** An approver's socket gets only its scoped view (InboxPeople.refresh), never the inbox's frames. */
  protected override hears(ws: WebSocket): boolean {
    return !this.invited.isApprovers(ws);
  }

  private get deadlines() {
    return this.parts.deadlines;
  }

  async apply(batch: OutboxBatch): Promise<{ appliedThrough: number }> {
    const parsed = OutboxBatch.parse(batch);
    const { frames, appliedThrough, pushes } = this.atomically(() => {
      const applied = this.store.apply(parsed);
      const pushed = this.push.onApplied(applied.events);
      const escalated = this.emails.onApplied(applied.events);
      return { ...applied, pushes: this.chat.onApplied(applied.events) || pushed || escalated };
    });
    for (const frame of frames) this.broadcast(frame);
    if (pushes) {
      this.deadlines.rearm();
      this.sendSoon();
    }
    await this.invited.refresh();
    return { appliedThrough };
  }

  /** A deleted session leaves the inbox, and its chat messages keep no card. */
  async forget(sessionId: string): Promise<void> {
    const frame = this.atomically(() => {
      this.chat.forgetSession(sessionId);
      return this.store.forget(sessionId);
    });
    if (frame) this.broadcast(frame);
    this.deadlines.rearm();
    this.sendSoon();
    await this.invited.refresh();
  }

  async view(person: string) {
    return this.store.view(person);
  }

  /**
   * The person's email addresses and the emails sent to them (src/router/reach/email-routes.ts); not
   * `email`, which names a Durable Object's Email Routing handler.
   */
  async emailAddresses(action: EmailAction): Promise<EmailOutcome> {
    const outcome = await this.emails.run(action);
    this.deadlines.rearm();
    this.sendSoon();
    return outcome;
  }

  async holds(sessionId: string): Promise<boolean> {
    return this.store.holds(sessionId);
  }

  async addGrant(grant: NewGrant): Promise<GrantView | null> {
    const parsed = NewGrant.parse(grant);
    return this.atomically(() => this.grantStore.add(parsed));
  }

  async listGrants(): Promise<GrantView[]> {
    return this.grantStore.list();
  }

  async revokeGrant(grantId: string): Promise<GrantView | null> {
    return this.grantStore.revoke(grantId);
  }

  async decideByGrants(query: GrantQuery): Promise<(GrantVerdict | null)[]> {
    // Bash rules read a command with the shell parser, loaded on first use.
    await loadShellReader();
    return this.atomically(() => this.grantStore.decide(query));
  }

  async decisions(query: DecisionQuery): Promise<DecisionPage> {
    return this.decisionStore.page(query);
  }

  async allDecisions(): Promise<DecisionRecord[]> {
    return this.decisionStore.all();
  }

  async spendSignInCode(id: string, expiresAt: number): Promise<boolean> {
    return this.tickets.spendOnce(id, expiresAt, "sign-in");
  }

  /** `…/inbox/stream` (SSE) and `…/inbox/ws` (WebSocket): hello, replay after the cursor, then live. */
  protected async onRequest(request: Request): Promise<Response> {
    const opened = readInboxStreamRequest(request);
    if (!opened.ok) return Response.json({ code: "invalid_input", message: opened.message }, { status: 400 });
    const approverId = approverIdOf(opened.tag);
    if (approverId && !(opened.kind === "ws" && this.invited.store.live(approverId)))
      return Response.json({ code: "forbidden", message: "This approver was removed" }, { status: 403 });
    if (opened.tag !== PERSON_TAG && !approverId && !this.links.isLive(opened.tag)) {
      return Response.json(
        { code: "forbidden", message: "This inbox link was revoked or has expired" },
        { status: 403 },
      );
    }
    // The ticket is spent last: a connection refused for any other reason leaves it unspent.
    const refused =
      inboxConnectionRefusal(this.ctx, this.streams, opened.tag) ??
      (this.replayBudget.allows(opened.tag) ? null : REPLAY_SPENT) ??
      this.tickets.spend(request, opened.tag);
    if (refused) return Response.json(refused, { status: refused.code === "forbidden" ? 403 : 429 });
    if (approverId) return this.invited.openSocket(opened.person, approverId);
    // The person's own chat accounts are theirs to see, never an inbox link's.
    const view = this.store.view(opened.person);
    const hello = {
      type: "hello" as const,
      view: opened.tag === PERSON_TAG ? { ...view, chatLinks: this.chat.links() } : view,
    };
    if (opened.kind === "sse") {
      return this.streams.open(opened.after, hello, opened.tag, (bytes) =>
        this.replayBudget.charge(opened.tag, bytes),
      );
    }
    return openInboxSocket(this.ctx, opened, hello, this.store, this.replayBudget);
  }

  async addLink(
    link: Pick<InboxLinkView, "linkId" | "role" | "label" | "expiresAt">,
  ): Promise<InboxLinkView | null> {
    const record = this.links.add(link);
    this.deadlines.rearm();
    return record;
  }

  async subscribePush(
    body: PushSubscriptionBody,
    by: { linkId: string | null; person: string },
    url: string,
  ): Promise<ErrorBody | null> {
    return this.push.subscribe(body, { linkId: by.linkId, url }, by.person);
  }

  async unsubscribePush(deviceId: string, linkId: string | null): Promise<boolean> {
    return this.push.unsubscribe(deviceId, linkId);
  }

  async approverDevices(personId: string, change?: ApproverDeviceChange) {
    return this.push.approverDevices(personId, change);
  }

  /** This instance's storage counters (the benchmark's rows written per card). */
  async stats(): Promise<{ rowsWritten: number; rowsRead: number; events: number }> {
    const { sql } = this.parts;
    return { rowsWritten: sql.rowsWritten, rowsRead: sql.rowsRead, events: this.store.lastSeq };
  }

  /** Pushes this inbox sent or is sending, newest first (what the person can inspect). */
  async deliveries() {
    // The one log: every row of the inbox's pushes, chat messages and emails.
    return [...this.push.deliveries.list(), ...this.chat.list(), ...this.emails.outbox.deliveries()].sort(
      (a, b) => b.createdAt - a.createdAt || b.id - a.id,
    );
  }

  // The person's own sockets list a chat account the moment it is linked or unlinked.
  async addChatLink(account: InboxChatAccount): Promise<void> {
    this.atomically(() => this.chat.addAccount(account));
    this.broadcast(this.chat.linksFrame(), PERSON_TAG);
  }

  async removeChatLink(linkId: string): Promise<void> {
    this.atomically(() => this.chat.removeAccount(linkId));
    this.deadlines.rearm();
    this.broadcast(this.chat.linksFrame(), PERSON_TAG);
  }

  async chatCard(ref: number, linkId: string) {
    return this.chat.messages.cardOf(ref, linkId);
  }

  async chatMessageSession(linkId: string, messageId: string) {
    return this.chat.messages.sessionOfMessage(linkId, messageId);
  }

  async chatTextWanted(ref: number, linkId: string, code: string) {
    return this.chat.messages.textWanted(ref, linkId, code);
  }

  async answerAsAccount(account: ChatAnswerer, ask: ChatAsk): Promise<string | null> {
    const words = await answerAsAccount(
      {
        chat: this.chat,
        now: () => this.clock.now(),
        toSession: (sessionId, actor, action) => sessionStub(this.env, sessionId).fromInbox(actor, action),
        senderFor: (platform) => chatSenderFor(this.env, platform),
      },
      account,
      ask,
    );
    // An edit that failed waits for its retry on the alarm.
    this.deadlines.rearm();
    return words;
  }

  async listLinks(): Promise<InboxLinkView[]> {
    return this.links.list();
  }

  async noteOpened(linkId: string, sessionId: string): Promise<void> {
    this.links.noteOpened(linkId, sessionId);
  }

  async openedThrough(linkId: string): Promise<string[]> {
    return this.links.openedThrough(linkId);
  }

  async linkIsLive(linkId: string): Promise<boolean> {
    return this.links.isLive(linkId);
  }

  /** Revokes a link and ends its streams and sockets at once; null when there is no such link. */
  async revokeLink(linkId: string): Promise<InboxLinkView | null> {
    const link = this.links.revoke(linkId);
    if (!link) return null;
    this.push.forgetLink(linkId);
    this.closeConnections(linkId, SOCKET_CLOSE.revoked, "This inbox link was revoked");
    return link;
  }

  async addAgentKey(key: Parameters<InboxAgentKeys["add"]>[0]): Promise<AgentKeyView | null> {
    return this.agentKeys.add(key);
  }

  async listAgentKeys(): Promise<AgentKeyView[]> {
    return this.agentKeys.list();
  }

  async checkAgentKey(keyId: string, hash: string): Promise<AgentKeyCheck> {
    return this.agentKeys.check(keyId, hash);
  }

  async revokeAgentKey(keyId: string): Promise<{ key: AgentKeyView; links: AgentKeyLink[] } | null> {
    return this.agentKeys.revoke(keyId);
  }

  async noteAgentLink(keyId: string, link: AgentKeyLink): Promise<boolean> {
    return this.agentKeys.noteLink(keyId, link);
  }

  async keyedSessionSalt(key: string): Promise<string> {
    return this.agentKeys.sessionSalt(key);
  }

  async renewKeyedSessionSalt(key: string, erased: string): Promise<string> {
    return this.agentKeys.renewSessionSalt(key, erased);
  }

  async invitePerson(invite: NewInvite) {
    return this.invited.store.invite(invite);
  }

  async redeemInvite(inviteId: string, approverId: string, signedInAs: string | null) {
    return this.invited.store.redeem(inviteId, approverId, signedInAs);
  }

  async people() {
    return this.invited.store.list();
  }

  /** Approvers who may answer now, as the escalation path reaches them (`{ personId, name, email? }`). */
  async approvers() {
    return this.invited.store.contacts();
  }

  async removePerson(id: string) {
    const removed = this.invited.remove(id);
    // A removed approver's devices go at once: nothing more is pushed to them.
    if (removed && "personId" in removed) this.push.forgetLink(APPROVER_HOLDER + removed.personId);
    if (removed && "approverId" in removed) await this.dropApproverChat(removed.approverId);
    return removed;
  }

  /** A removed approver's chat accounts get nothing more, here at once and in the channel object. */
  private async dropApproverChat(approverId: string): Promise<void> {
    this.atomically(() => this.chat.removeApprover(approverId));
    this.deadlines.rearm();
    await unlinkApproverAccounts(this.env, approverId).catch((error) =>
      console.error("InboxObject: the channel object kept a removed approver's links", error),
    );
  }

  /** The cards approver `approverId` answers for this inbox's person `inviter`; null once removed. */
  async answering(inviter: string, approverId: string) {
    return this.invited.scoped(inviter, approverId);
  }

  /** Closes every stream and socket opened with `tag` (a revoked inbox link). */
  async closeStreams(tag: string, code: number, reason: string): Promise<void> {
    this.closeConnections(tag, code, reason);
  }
}
