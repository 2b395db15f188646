// What a person's inbox hands a session in `fromInbox` (src/session/inbox-actions.ts does it): who
// acts, named by the Worker or the inbox, and what they ask. Types only.
import type { LinkRole, ShareLinkView } from "../../protocol/access/access";
import type { ChatPlatform } from "../../protocol/reach/channels";
import type { SessionCommand } from "../../protocol/wire/commands";

/**
 * Who acts from the inbox: the person in person, the person from a notification's action (`push`,
 * with an answer token), a chat account they linked, or an inbox link they minted.
 */
export type InboxActor =
  | { kind: "person"; person: string }
  | { kind: "push"; person: string }
  | { kind: "chat"; person: string; platform: ChatPlatform; accountId: string; name: string }
  | {
      kind: "inbox_link";
      person: string;
      linkId: string;
      role: Extract<LinkRole, "answer" | "view">;
      label: string | null;
    }
  /**
   * Someone `person` invited to answer their cards: a person of their own (`personId`), who answers
   * one card at a time and counts as a second person (src/people, docs/guide-people.md).
   */
  | {
      kind: "approver";
      person: string;
      approverId: string;
      personId: string;
      name: string;
      /** A chat account the approver linked; otherwise their page or an email's link or reply. */
      device?: "chat";
    };

/**
 * What the inbox asks: a card command, a notification's answer (its token checked by the Worker,
 * spent here once), a share link to open the session, revoking what a link opened.
 */
export type InboxAction =
  | { type: "command"; command: SessionCommand }
  | { type: "push_answer"; answer: PushAnswer }
  | { type: "open"; link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt"> }
  | { type: "revoke_opened"; linkId: string };

/** A notification's answer: its token's card, decision and id (spent once here), until the deadline. */
export interface PushAnswer {
  interactionId: string;
  decision: "approve" | "deny";
  nonce: string;
  expiresAt: number;
}
