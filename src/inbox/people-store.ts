// The people a person invited to answer their cards, kept by the inviter's Inbox object: invites
// (single-use, expiring), the approvers who redeemed them, and removal, checked on every use.
import {
  APPROVER_PREFIX,
  type ApproverContact,
  type ApproverView,
  type InviteView,
  MAX_PEOPLE,
  type NewInvite,
  PeopleScope,
  type PeopleView,
  type RedeemRefusal,
} from "../people/people-terms";
import type { SqlCounter } from "../storage/sql-counter";

type Row = {
  invite_id: string;
  name: string;
  scope: string;
  email: string | null;
  created_at: number;
  expires_at: number;
  approver_id: string | null;
  person_id: string | null;
  redeemed_at: number | null;
  removed_at: number | null;
};

const scopeOf = (row: Row): PeopleScope => PeopleScope.parse(JSON.parse(row.scope));

function approverOf(row: Row): ApproverView | null {
  if (row.approver_id === null || row.person_id === null || row.redeemed_at === null) return null;
  return {
    personId: row.person_id,
    approverId: row.approver_id,
    name: row.name,
    scope: scopeOf(row),
    email: row.email,
    createdAt: row.created_at,
    redeemedAt: row.redeemed_at,
    removedAt: row.removed_at,
  };
}

function inviteOf(row: Row): InviteView {
  return {
    inviteId: row.invite_id,
    name: row.name,
    scope: scopeOf(row),
    email: row.email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export class PeopleStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  /** Records an invite; null when the person keeps the most people allowed. */
  invite(invite: NewInvite): InviteView | null {
    const count = this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM people`)?.n ?? 0;
    if (count >= MAX_PEOPLE) return null;
    this.sql.run(
      ["people"],
      `INSERT INTO people (invite_id, name, scope, email, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
      invite.inviteId,
      invite.name,
      JSON.stringify(PeopleScope.parse(invite.scope)),
      invite.email,
      this.now(),
      invite.expiresAt,
    );
    const row = this.row(`invite_id = ?`, invite.inviteId);
    return row ? inviteOf(row) : null;
  }

  /**
   * Spends an invite once: the redeemer becomes an approver with a new `approverId`, known as
   * `signedInAs` behind Access (who must be the invite's email) or as `approver:<approverId>`.
   */
  redeem(
    inviteId: string,
    approverId: string,
    signedInAs: string | null,
  ): { ok: true; approver: ApproverView } | { ok: false; reason: RedeemRefusal } {
    const row = this.row(`invite_id = ?`, inviteId);
    if (!row) return { ok: false, reason: "unknown" };
    if (row.removed_at !== null) return { ok: false, reason: "removed" };
    if (row.redeemed_at !== null) return { ok: false, reason: "spent" };
    if (row.expires_at <= this.now()) return { ok: false, reason: "expired" };
    if (signedInAs !== null && row.email !== signedInAs.toLowerCase())
      return { ok: false, reason: "wrong_person" };
    const personId = signedInAs === null ? `${APPROVER_PREFIX}${approverId}` : signedInAs.toLowerCase();
    // One approver per person: a second invite of the same identity replaces nothing, it is refused.
    if (this.liveByPerson(personId)) return { ok: false, reason: "spent" };
    this.sql.run(
      ["people"],
      `UPDATE people SET approver_id = ?, person_id = ?, redeemed_at = ? WHERE invite_id = ? AND redeemed_at IS NULL`,
      approverId,
      personId,
      this.now(),
      inviteId,
    );
    const approver = approverOf(this.row(`invite_id = ?`, inviteId) as Row);
    return approver ? { ok: true, approver } : { ok: false, reason: "spent" };
  }

  /** The approver while they may answer; null once removed (or never redeemed). */
  live(approverId: string): ApproverView | null {
    const row = this.row(`approver_id = ? AND removed_at IS NULL`, approverId);
    return row ? approverOf(row) : null;
  }

  private liveByPerson(personId: string): ApproverView | null {
    const row = this.row(`person_id = ? AND removed_at IS NULL`, personId);
    return row ? approverOf(row) : null;
  }

  /** Approvers who may answer, then invites still waiting (an expired one is no longer listed). */
  list(): PeopleView {
    const rows = this.sql.all<Row>(
      `SELECT * FROM people WHERE removed_at IS NULL ORDER BY created_at, invite_id`,
    );
    const now = this.now();
    return {
      approvers: rows.flatMap((row) => approverOf(row) ?? []),
      invites: rows.filter((row) => row.redeemed_at === null && row.expires_at > now).map(inviteOf),
    };
  }

  /** The live approvers as the escalation path reaches them, with their scope: the email only behind Access. */
  contacts(): ApproverContact[] {
    return this.list().approvers.map((approver) => ({
      personId: approver.personId,
      name: approver.name,
      scope: approver.scope,
      ...(approver.email ? { email: approver.email } : {}),
    }));
  }

  /**
   * Removes an approver (by person id) or an unredeemed invite (by invite id) at once; the removed
   * approver's id, so their sockets can be closed, or null when there was no such one.
   */
  remove(id: string): { removed: ApproverView | InviteView; approverId: string | null } | null {
    const row = this.row(`(person_id = ? OR invite_id = ?) AND removed_at IS NULL`, id, id);
    if (!row) return null;
    this.sql.run(
      ["people"],
      `UPDATE people SET removed_at = ? WHERE invite_id = ?`,
      this.now(),
      row.invite_id,
    );
    const removed = this.row(`invite_id = ?`, row.invite_id) as Row;
    return { removed: approverOf(removed) ?? inviteOf(removed), approverId: removed.approver_id };
  }

  private row(where: string, ...bindings: string[]): Row | null {
    return this.sql.one<Row>(`SELECT * FROM people WHERE ${where}`, ...bindings);
  }
}
