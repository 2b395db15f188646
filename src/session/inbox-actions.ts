// What a person's inbox asks of a session, done with the actor's own rights: the person, who must
// be the session's creator, acts as its owner whatever owner token is current, and so does a chat
// account they linked (one more of their devices); an inbox link acts with its own role and label,
// as a share link of that role would. The Worker names the actor;
// this session alone decides what that actor may do here.

import { answerableFromNotification } from "../notify/push-actions";
import type { InboxAction, InboxActor, PushAnswer } from "../objects/contracts/session-inbox";
import { Refusal } from "../objects/refusal";
import { SpentTickets } from "../objects/spent-tickets";
import { approverAnswerRefusal } from "../people/approver-answer";
import type { Access } from "../protocol/access/access";
import type { Decider, DeviceKind } from "../protocol/cards/decider";
import type { ChatPlatform } from "../protocol/reach/channels";
import { PLATFORM_NAMES } from "../protocol/reach/platform-names";
import type { SessionCommand } from "../protocol/wire/commands";
import type { CommandOutcome } from "./command-handler";
import { addLink, type LinkAdminHost, revokeLink } from "./link-admin";
import { refuse, UNKNOWN_SESSION } from "./session-refusal";

/** The device id receipts show for an answer given from the inbox. */
export const INBOX_DEVICE = "inbox";

/** The device id receipts show for an answer given from a notification's action. */
export const PUSH_DEVICE = "push";

/** How an answer given through an inbox link is recorded: its label and its id. */
export function linkAnswerer(link: { linkId: string; label: string | null }): string {
  return `${link.label ?? "inbox link"} (inbox link ${link.linkId.slice(0, 8)})`;
}

/** How an answer given from a linked chat account is recorded: "Ana · Telegram". */
export function chatAnswerer(account: { platform: ChatPlatform; name: string }): string {
  return `${account.name} · ${PLATFORM_NAMES[account.platform]}`;
}

/**
 * The rights an inbox actor acts with: the person, and a chat account linked to them, as the
 * owner, whatever owner token is current; a link as a share link of its role.
 */
export function inboxActorAccess(actor: InboxActor): Access {
  if (actor.kind === "approver") return { role: "answer", linkId: actor.approverId };
  return actor.kind === "inbox_link"
    ? { role: actor.role, linkId: actor.linkId }
    : { role: "owner", linkId: null };
}

/**
 * The device id an inbox actor's answers carry: a chat account's own (`chat-<platform>-<id>`, so
 * a grant made from it is known as made from chat), else the inbox's.
 */
export function inboxActorDevice(actor: InboxActor): string {
  if (actor.kind === "push") return PUSH_DEVICE;
  return actor.kind === "chat" ? `chat-${actor.platform}-${actor.accountId}` : INBOX_DEVICE;
}

/**
 * Who decides when an inbox actor answers: the person, or an inbox link, from the inbox page; a
 * linked chat account from chat, known by its platform and account id. Each counts as the person.
 */
export function inboxActorDecider(actor: InboxActor): Decider {
  if (actor.kind === "approver") {
    const { name, personId } = actor;
    return { kind: "person", label: name, id: personId, device: actor.device ?? "page", personId };
  }
  // Every other inbox actor is its person's: the person, their linked account, a link they minted.
  const personId = actor.person;
  if (actor.kind === "person")
    return { kind: "person", label: actor.person, id: actor.person, device: "page", personId };
  if (actor.kind === "push")
    return { kind: "person", label: actor.person, id: actor.person, device: "push", personId };
  if (actor.kind === "chat") {
    const id = `${actor.platform}:${actor.accountId}`;
    return { kind: "chat", label: chatAnswerer(actor), id, device: "chat", personId };
  }
  return { kind: "link", label: linkAnswerer(actor), id: actor.linkId, device: "page", personId };
}

/** Each actor's own allowance: the person's, each chat account's, each link's. */
export function inboxAllowance(actor: InboxActor): string {
  if (actor.kind === "person") return "inbox:person";
  if (actor.kind === "push") return "inbox:push";
  if (actor.kind === "chat") return `inbox:${inboxActorDevice(actor)}`;
  if (actor.kind === "approver") return `inbox:approver:${actor.approverId}`;
  return `inbox:${actor.linkId}`;
}

/**
 * An inbox actor as the session's door admits it: never an owner token's version (a rotation of
 * the token leaves the person their inbox); a link with a share link's rights of its role.
 */
export function inboxEntrance(actor: InboxActor): {
  access: Access;
  deviceId: string;
  device: DeviceKind;
  decider: Decider;
} {
  const decider = inboxActorDecider(actor);
  const device = decider.device ?? "page";
  return { access: inboxActorAccess(actor), deviceId: inboxActorDevice(actor), device, decider };
}

/** What the inbox's actions need of the session. */
export interface InboxActionHost extends LinkAdminHost {
  exists(): boolean;
  /** The session's one door, which every command of the inbox enters by. */
  enter(actor: InboxActor, command: SessionCommand): Promise<CommandOutcome>;
}

/**
 * The inbox's part of the door's guard: the session exists and is the actor's person's; an invited
 * approver is refused anything beyond answering one card once (`command` null: any other action).
 */
export function guardInboxActor(
  host: Pick<InboxActionHost, "exists" | "state">,
  actor: InboxActor,
  command: SessionCommand | null,
): void {
  if (!host.exists()) throw Refusal.from(UNKNOWN_SESSION);
  const creator = host.state.creator();
  if (creator === null) refuse("unknown_session", "No such session");
  if (creator !== actor.person) refuse("forbidden", "This session belongs to another person");
  if (actor.kind === "approver") refuseBeyondApprover(host, command);
}

export async function runInboxAction(
  host: InboxActionHost,
  actor: InboxActor,
  action: InboxAction,
): Promise<CommandOutcome> {
  if (action.type === "command") return host.enter(actor, action.command);
  guardInboxActor(host, actor, null);
  if (action.type === "push_answer") {
    if (actor.kind !== "push") refuse("forbidden", "Only a notification's answer token answers this way");
    return answerFromPush(host, actor, action.answer);
  }
  const linkId = action.type === "open" ? action.link.linkId : action.linkId;
  const known = host.state.links.list().find((link) => link.linkId === linkId);
  if (action.type === "open") {
    if (known?.revokedAt) refuse("forbidden", "The session's owner revoked this inbox's access");
    if (!known) addLink(host, action.link);
    return { ok: true, result: { linkId: action.link.linkId } };
  }
  // A link that never got its share link here (the open failed after it was noted) has nothing to revoke.
  if (!known) return { ok: true, result: { revoked: false } };
  revokeLink(host, linkId);
  return { ok: true, result: { revoked: true } };
}

/**
 * An invited approver answers a card, once, as asked: never more time, a session's link, a grant,
 * "always", an edit or a stop (src/people/approver-answer.ts), whatever door the Worker used.
 */
function refuseBeyondApprover(host: Pick<InboxActionHost, "state">, command: SessionCommand | null): void {
  if (command?.type !== "respond" || command.interactionId === undefined)
    refuse("forbidden", "An invited approver may only answer cards, each by its interactionId");
  const kind = host.state.interactions.get(command.interactionId)?.kind;
  const refusal = kind ? approverAnswerRefusal(kind, command.response) : null;
  if (refusal) refuse("forbidden", refusal);
}

/**
 * A notification's Approve or Deny: refused, spending nothing, unless the card is still open and
 * still one its notification may answer; then the token is spent and the answer enters by the
 * session's door as the person's, from device `push`. A token spent before is refused and changes nothing.
 */
function answerFromPush(
  host: InboxActionHost,
  actor: InboxActor,
  answer: PushAnswer,
): Promise<CommandOutcome> {
  const card = host.state.interactions.get(answer.interactionId);
  if (!card) refuse("not_found", "No such card in this session");
  if (card.status !== "pending") refuse("already_resolved", "This card was already resolved");
  const approvals = host.state.cardApprovals.of(answer.interactionId);
  if (!answerableFromNotification({ kind: card.kind, request: card.request, approvals })) {
    refuse("forbidden", "This card is answered on its page, not from a notification");
  }
  const spent = new SpentTickets(host.state.meta, host.state.clock.now);
  if (!spent.spendOnce(answer.nonce, answer.expiresAt, "push-answer")) {
    refuse("forbidden", "This notification's answer was already used");
  }
  const command: SessionCommand = {
    type: "respond",
    interactionId: answer.interactionId,
    response: { decision: answer.decision },
  } as SessionCommand;
  return host.enter(actor, command);
}
