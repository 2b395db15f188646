// The person's grants in their Inbox object's SQLite: kept, listed (ended ones greyed for a week),
// revoked, and asked by sessions before a card opens, counting each use.
import { type ApplicableGrant, decidingGrant, isLive } from "../grants/grant-decision";
import { describeRule, parseRule } from "../grants/grant-rule";
import {
  CHAT_GRANT_MAX_SECONDS,
  type DeviceKind,
  ENDED_GRANT_LISTED_MS,
  type GrantEffect,
  type GrantQuery,
  type GrantScope,
  type GrantVerdict,
  type GrantView,
  MAX_GRANTS,
  type NewGrant,
} from "../protocol/grants/grants";
import type { SqlCounter } from "../storage/sql-counter";

type GrantRow = {
  grant_id: string;
  effect: string;
  rule: string;
  scope: string;
  session_id: string | null;
  agent_name: string | null;
  agent_key: string | null;
  reason: string | null;
  made_by: string;
  made_from: string;
  from_interaction: string | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  uses: number;
  last_used_at: number | null;
};

export class GrantStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    private readonly newId: () => string = () => `grant_${crypto.randomUUID().replaceAll("-", "")}`,
  ) {}

  /** Keeps a new grant; null when the person already holds MAX_GRANTS. */
  add(grant: NewGrant): GrantView | null {
    const now = this.now();
    this.dropLongEnded(now);
    const held = this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM grants`)?.n ?? 0;
    if (held >= MAX_GRANTS) return null;
    const grantId = this.newId();
    // A grant made from chat lasts a day at most, whatever was asked.
    const seconds =
      grant.madeFrom === "chat"
        ? Math.min(grant.expiresInSeconds ?? CHAT_GRANT_MAX_SECONDS, CHAT_GRANT_MAX_SECONDS)
        : grant.expiresInSeconds;
    this.sql.run(
      ["grants"],
      `INSERT INTO grants (grant_id, effect, rule, scope, session_id, agent_name, agent_key, reason, made_by,
         made_from, from_interaction, created_at, expires_at, revoked_at, uses, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, NULL)`,
      grantId,
      grant.effect,
      grant.rule,
      grant.scope,
      grant.sessionId,
      grant.agent?.name ?? null,
      grant.agent?.key ?? null,
      grant.reason,
      grant.madeBy,
      grant.madeFrom,
      grant.fromInteraction,
      now,
      seconds === null ? null : now + seconds * 1_000,
    );
    return this.get(grantId);
  }

  get(grantId: string): GrantView | null {
    const row = this.sql.one<GrantRow>(`SELECT * FROM grants WHERE grant_id = ?`, grantId);
    return row ? viewOf(row, this.now()) : null;
  }

  /** Live grants first (newest first), then those ended in the last week. */
  list(): GrantView[] {
    const now = this.now();
    this.dropLongEnded(now);
    return this.sql
      .all<GrantRow>(`SELECT * FROM grants ORDER BY created_at DESC, grant_id`)
      .map((row) => viewOf(row, now))
      .sort((a, b) => Number(b.active) - Number(a.active));
  }

  /** Revokes a grant from now on; null when there is no such grant. Revoking twice keeps the first time. */
  revoke(grantId: string): GrantView | null {
    this.sql.run(
      ["grants"],
      `UPDATE grants SET revoked_at = COALESCE(revoked_at, ?) WHERE grant_id = ?`,
      this.now(),
      grantId,
    );
    return this.get(grantId);
  }

  /** What the person's grants decide for each call (null: ask); counts a use of each deciding grant. */
  decide(query: GrantQuery): (GrantVerdict | null)[] {
    const now = this.now();
    const grants = this.sql
      .all<GrantRow>(
        `SELECT * FROM grants WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
        now,
      )
      .map(applicableOf);
    return query.calls.map((call) => {
      const grant = decidingGrant(grants, call, query, now);
      if (!grant) return null;
      this.sql.run(
        ["grants"],
        `UPDATE grants SET uses = uses + 1, last_used_at = ? WHERE grant_id = ?`,
        now,
        grant.grantId,
      );
      return { effect: grant.effect, grantId: grant.grantId, rule: grant.rule, reason: grant.reason };
    });
  }

  private dropLongEnded(now: number): void {
    const before = now - ENDED_GRANT_LISTED_MS;
    this.sql.run(
      ["grants"],
      `DELETE FROM grants WHERE (revoked_at IS NOT NULL AND revoked_at < ?) OR (expires_at IS NOT NULL AND expires_at < ?)`,
      before,
      before,
    );
  }
}

function applicableOf(row: GrantRow): ApplicableGrant {
  return {
    grantId: row.grant_id,
    effect: row.effect as GrantEffect,
    rule: row.rule,
    scope: row.scope as GrantScope,
    sessionId: row.session_id,
    agent: row.agent_name === null ? null : { name: row.agent_name, key: row.agent_key },
    reason: row.reason,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

function viewOf(row: GrantRow, now: number): GrantView {
  const grant = applicableOf(row);
  const parsed = parseRule(row.rule);
  return {
    grantId: grant.grantId,
    effect: grant.effect,
    rule: grant.rule,
    matches: parsed.ok ? describeRule(parsed.rule) : parsed.message,
    scope: grant.scope,
    sessionId: grant.sessionId,
    agent: grant.agent,
    reason: grant.reason,
    madeBy: row.made_by,
    madeFrom: row.made_from as DeviceKind,
    fromInteraction: row.from_interaction,
    createdAt: grant.createdAt,
    expiresAt: grant.expiresAt,
    revokedAt: grant.revokedAt,
    uses: row.uses,
    lastUsedAt: row.last_used_at,
    active: isLive(grant, now),
  };
}
