// The agent keys a person minted, as their Inbox object keeps them: a hash of each key's secret,
// its label, expiry and revocation, and the agent links each key was given, so revoking the key
// revokes them too. Also the salt of each keyed external session's current incarnation.
import {
  type AgentKeyCheck,
  type AgentKeyLink,
  type AgentKeyView,
  MAX_AGENT_KEYS,
} from "../protocol/machines/agent-keys";
import type { SqlCounter } from "../storage/sql-counter";

type Row = {
  key_id: string;
  label: string;
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
};

function viewOf(row: Row): AgentKeyView {
  return {
    keyId: row.key_id,
    label: row.label,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export class InboxAgentKeys {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  /** Records a new key; null when the person already holds the most keys allowed. */
  add(key: { keyId: string; label: string; hash: string; expiresAt: number | null }): AgentKeyView | null {
    const count = this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM agent_keys`)?.n ?? 0;
    if (count >= MAX_AGENT_KEYS) return null;
    this.sql.run(
      ["agent_keys"],
      `INSERT INTO agent_keys (key_id, label, secret_hash, created_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, NULL)`,
      key.keyId,
      key.label,
      key.hash,
      this.now(),
      key.expiresAt,
    );
    return this.get(key.keyId);
  }

  list(): AgentKeyView[] {
    return this.sql.all<Row>(`SELECT * FROM agent_keys ORDER BY created_at, key_id`).map(viewOf);
  }

  check(keyId: string, hash: string): AgentKeyCheck {
    const row = this.row(keyId);
    if (!row || row.secret_hash !== hash) return "unknown";
    if (row.revoked_at !== null) return "revoked";
    if (row.expires_at !== null && row.expires_at <= this.now()) return "expired";
    return "live";
  }

  /** Marks a key revoked (idempotent) and answers the agent links it was given; null when unknown. */
  revoke(keyId: string): { key: AgentKeyView; links: AgentKeyLink[] } | null {
    this.sql.run(
      ["agent_keys"],
      `UPDATE agent_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL`,
      this.now(),
      keyId,
    );
    const key = this.get(keyId);
    if (!key) return null;
    const links = this.sql
      .all<{ session_id: string; link_id: string }>(
        `SELECT session_id, link_id FROM agent_key_links WHERE key_id = ?`,
        keyId,
      )
      .map((row) => ({ sessionId: row.session_id, linkId: row.link_id }));
    return { key, links };
  }

  /**
   * Records an agent link the key was given. False when the key is no longer live: the caller
   * revokes the link itself, so a key revoked mid-creation leaves no link alive.
   */
  noteLink(keyId: string, link: AgentKeyLink): boolean {
    const row = this.row(keyId);
    this.sql.run(
      ["agent_key_links"],
      `INSERT INTO agent_key_links (key_id, session_id, link_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
      keyId,
      link.sessionId,
      link.linkId,
    );
    return (
      row !== null && row.revoked_at === null && (row.expires_at === null || row.expires_at > this.now())
    );
  }

  /** The salt of keyed external session `key`'s current incarnation, chosen on first use. */
  sessionSalt(key: string): string {
    const row = this.sql.one<{ salt: string }>(`SELECT salt FROM keyed_sessions WHERE agent_key = ?`, key);
    if (row) return row.salt;
    const salt = newSalt();
    this.sql.run(["keyed_sessions"], `INSERT INTO keyed_sessions (agent_key, salt) VALUES (?, ?)`, key, salt);
    return salt;
  }

  /**
   * The incarnation salted `erased` was deleted or expired: a new salt (hence a new id and new
   * tokens) unless another request renewed it first, whose salt is then answered.
   */
  renewSessionSalt(key: string, erased: string): string {
    this.sql.run(
      ["keyed_sessions"],
      `UPDATE keyed_sessions SET salt = ? WHERE agent_key = ? AND salt = ?`,
      newSalt(),
      key,
      erased,
    );
    return this.sessionSalt(key);
  }

  private row(keyId: string): Row | null {
    return this.sql.one<Row>(`SELECT * FROM agent_keys WHERE key_id = ?`, keyId) ?? null;
  }

  private get(keyId: string): AgentKeyView | null {
    const row = this.row(keyId);
    return row ? viewOf(row) : null;
  }
}

function newSalt(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}
