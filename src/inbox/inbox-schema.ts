// The Inbox object's SQLite schema and its migrations, versioned by a row in `meta` like a session's.

/** Each version's statements, in order; exported so an upgrade's test can run one of them. */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    // One row per session of this person: its latest summary, and the highest outbox seq applied.
    `CREATE TABLE sessions (
      session_id TEXT PRIMARY KEY, applied_seq INTEGER NOT NULL, status TEXT NOT NULL, title TEXT,
      agent TEXT NOT NULL, created_at INTEGER NOT NULL, last_activity INTEGER NOT NULL)`,
    `CREATE TABLE cards (
      session_id TEXT NOT NULL, interaction_id TEXT NOT NULL, tool_call_id TEXT NOT NULL, kind TEXT NOT NULL,
      tool_name TEXT NOT NULL, request TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, interaction_id))`,
    `CREATE INDEX cards_by_deadline ON cards (expires_at)`,
    // The inbox's own event log: each applied change, replayed to streams after their cursor.
    `CREATE TABLE events (seq INTEGER PRIMARY KEY, frame TEXT NOT NULL, at INTEGER NOT NULL)`,
  ],
  [
    // Links the person minted to their inbox; revoked ones stay listed, and are refused.
    `CREATE TABLE links (
      link_id TEXT PRIMARY KEY, role TEXT NOT NULL, label TEXT, created_at INTEGER NOT NULL,
      expires_at INTEGER, revoked_at INTEGER)`,
  ],
  [
    // Devices that asked to be notified of every card of this person, and the pushes to send them
    // (the same tables, and stores, as a session's: src/notify/*).
    `CREATE TABLE push_subscriptions (
      device_id TEXT PRIMARY KEY, subscription TEXT NOT NULL, url TEXT NOT NULL, link_id TEXT, at INTEGER NOT NULL)`,
    `CREATE TABLE deliveries (
      id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, target TEXT NOT NULL, change TEXT NOT NULL,
      interaction_id TEXT NOT NULL, notice TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL,
      next_at INTEGER, last_status INTEGER, last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
    `CREATE INDEX deliveries_due ON deliveries (status, next_at)`,
    // Sessions opened through each inbox link (each holds a share link with the link's id).
    `CREATE TABLE link_sessions (link_id TEXT NOT NULL, session_id TEXT NOT NULL, PRIMARY KEY (link_id, session_id))`,
  ],
  [
    // A card's deadline terms (JSON), so the inbox offers "more time" as the session page does.
    `ALTER TABLE cards ADD COLUMN deadline_policy TEXT`,
  ],
  [
    // Agent keys the person minted (only a hash of each secret), and the agent links each was
    // given, which revoking the key revokes.
    `CREATE TABLE agent_keys (
      key_id TEXT PRIMARY KEY, label TEXT NOT NULL, secret_hash TEXT NOT NULL, created_at INTEGER NOT NULL,
      expires_at INTEGER, revoked_at INTEGER)`,
    `CREATE TABLE agent_key_links (
      key_id TEXT NOT NULL, session_id TEXT NOT NULL, link_id TEXT NOT NULL,
      PRIMARY KEY (key_id, session_id, link_id))`,
    // The salt of each keyed external session's current incarnation, mixed into its id and tokens.
    `CREATE TABLE keyed_sessions (agent_key TEXT PRIMARY KEY, salt TEXT NOT NULL)`,
  ],
  [
    // The person's grants: standing allow/deny rules applied before a card opens. Expired and
    // revoked ones stay a week for the list, greyed.
    `CREATE TABLE grants (
      grant_id TEXT PRIMARY KEY, effect TEXT NOT NULL, rule TEXT NOT NULL, scope TEXT NOT NULL, session_id TEXT,
      agent_name TEXT, agent_key TEXT, reason TEXT, made_by TEXT NOT NULL, made_from TEXT NOT NULL,
      from_interaction TEXT, created_at INTEGER NOT NULL, expires_at INTEGER, revoked_at INTEGER,
      uses INTEGER NOT NULL DEFAULT 0, last_used_at INTEGER)`,
    // The decision record: one row per resolution of a card, kept past the session's deletion.
    `CREATE TABLE decisions (
      decision_id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, session_id TEXT NOT NULL,
      interaction_id TEXT NOT NULL, agent TEXT NOT NULL, kind TEXT NOT NULL, tool_name TEXT NOT NULL,
      input_digest TEXT NOT NULL, outcome TEXT NOT NULL, decided_by TEXT NOT NULL, grant_id TEXT,
      UNIQUE (session_id, interaction_id))`,
    `CREATE INDEX decisions_by_at ON decisions (at)`,
  ],
  [
    // Chat accounts linked to this person (src/inbox/inbox-chat.ts), and the messages sent to them:
    // one per card and account, one edit to its receipt per message.
    `CREATE TABLE chat_links (
      link_id TEXT PRIMARY KEY, platform TEXT NOT NULL, account_id TEXT NOT NULL, name TEXT NOT NULL,
      thread_id TEXT NOT NULL, origin TEXT NOT NULL)`,
    `CREATE TABLE chat_deliveries (
      id INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, link_id TEXT NOT NULL, thread_id TEXT NOT NULL,
      session_id TEXT NOT NULL, interaction_id TEXT NOT NULL, change TEXT NOT NULL, payload TEXT NOT NULL,
      status TEXT NOT NULL, attempts INTEGER NOT NULL, next_at INTEGER, message_id TEXT, last_status INTEGER,
      last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      UNIQUE (link_id, session_id, interaction_id, change))`,
    `CREATE INDEX chat_deliveries_due ON chat_deliveries (status, next_at)`,
    `CREATE INDEX chat_deliveries_by_card ON chat_deliveries (session_id, interaction_id)`,
  ],
  [
    // What a chat message's presses gathered so far (several questions answered in turn, toggles
    // of a multi-select), sent as one answer when complete (src/channels/card-progress.ts).
    `ALTER TABLE chat_deliveries ADD COLUMN progress TEXT`,
  ],
  [
    // An approval that needs several distinct approvals: how many so far, as JSON (ApprovalCount).
    `ALTER TABLE cards ADD COLUMN approvals TEXT`,
    // Who approved such a card, each (the decider of the last is `decided_by`), as JSON.
    `ALTER TABLE decisions ADD COLUMN approvals TEXT`,
  ],
  [
    // Per subscribed device: whether an approval's notification carries Approve and Deny (1) or
    // only opens the card (0), and the person who subscribed it in person (null through a link).
    `ALTER TABLE push_subscriptions ADD COLUMN actions INTEGER NOT NULL DEFAULT 1`,
    `ALTER TABLE push_subscriptions ADD COLUMN person TEXT`,
  ],
  [
    // People this person invited to answer their cards (src/inbox/people-store.ts): an invite until
    // redeemed, then an approver of their own (person_id) until removed; `scope` is JSON.
    `CREATE TABLE people (
      invite_id TEXT PRIMARY KEY, name TEXT NOT NULL, scope TEXT NOT NULL, email TEXT,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, approver_id TEXT UNIQUE, person_id TEXT,
      redeemed_at INTEGER, removed_at INTEGER)`,
  ],
  [
    // The rungs of a card's escalation ladder that ran before it resolved, as JSON.
    `ALTER TABLE decisions ADD COLUMN escalations TEXT`,
    // The person's email addresses (src/email/email-addresses.ts): verified once the code sent there
    // came back; the code kept only as a hash until it is used or expires; the codes sent, as JSON times.
    `CREATE TABLE emails (
      address TEXT PRIMARY KEY, person TEXT NOT NULL, origin TEXT NOT NULL, created_at INTEGER NOT NULL, verified_at INTEGER,
      code_hash TEXT, code_expires_at INTEGER, code_tries INTEGER NOT NULL DEFAULT 0, codes_sent TEXT NOT NULL)`,
    // Emails waiting for the alarm to send them, and what became of them; the text, and the card a
    // link is signed for at sending (JSON), go once sent.
    `CREATE TABLE email_outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT NOT NULL, subject TEXT NOT NULL, text TEXT, link TEXT,
      purpose TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER,
      created_at INTEGER NOT NULL, error TEXT)`,
    `CREATE INDEX email_outbox_due ON email_outbox (next_at) WHERE next_at IS NOT NULL`,
  ],
  [
    // Each card email's one answer (src/email/email-answers.ts): its token (in the link and the
    // Reply-To), the card, whom it answers as and the address it went to; used once, until the card's deadline.
    `CREATE TABLE email_answers (
      token TEXT PRIMARY KEY, session_id TEXT NOT NULL, interaction_id TEXT NOT NULL, person TEXT NOT NULL,
      address TEXT NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER)`,
  ],
  [
    // Emails are delivery rows of the one shape (src/notify/delivery-rows.ts): the card a row is
    // about, its last outcome and when it last changed; a sent email is 'delivered'.
    `ALTER TABLE email_outbox RENAME COLUMN error TO last_error`,
    `ALTER TABLE email_outbox ADD COLUMN interaction_id TEXT`,
    `ALTER TABLE email_outbox ADD COLUMN last_status INTEGER`,
    `ALTER TABLE email_outbox ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0`,
    `UPDATE email_outbox SET updated_at = created_at, interaction_id = json_extract(link, '$.interactionId'),
       status = CASE status WHEN 'sent' THEN 'delivered' ELSE status END`,
    `DROP INDEX email_outbox_due`,
    `CREATE INDEX email_outbox_due ON email_outbox (status, next_at)`,
  ],
  [
    // A reply in chat finds its card's message by the platform's id of it (inbox-chat-messages.ts).
    `CREATE INDEX chat_deliveries_by_message ON chat_deliveries (link_id, message_id)`,
  ],
  [
    // A chat account an invited approver linked from their answering page answers as that approver
    // (people.approver_id) and gets only the rungs that reach them (src/inbox/inbox-chat.ts).
    `ALTER TABLE chat_links ADD COLUMN approver_id TEXT`,
  ],
];

/** Brings the inbox's database up to the last migration; safe on every constructor call. */
export function migrateInbox(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  const row = sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`).toArray()[0];
  let version = row ? Number(row.value) : 0;
  while (version < MIGRATIONS.length) {
    for (const statement of MIGRATIONS[version] ?? []) sql.exec(statement);
    version += 1;
    sql.exec(
      `INSERT INTO meta (key, value) VALUES ('schema_version', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      String(version),
    );
  }
}
