// The session's SQLite schema and its migrations, versioned by a row in `meta`
// (Durable Objects do not support PRAGMA user_version).

const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    // `frame` is the event exactly as sent on the wire, so replay never re-serializes.
    `CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, frame TEXT NOT NULL, at INTEGER NOT NULL)`,
    `CREATE TABLE messages (id INTEGER PRIMARY KEY, role TEXT NOT NULL, content TEXT NOT NULL, at INTEGER NOT NULL)`,
    `CREATE TABLE interactions (
      tool_call_id TEXT PRIMARY KEY, kind TEXT NOT NULL, tool_name TEXT NOT NULL, request TEXT NOT NULL,
      status TEXT NOT NULL, response TEXT, deadline INTEGER NOT NULL, created_at INTEGER NOT NULL,
      resolved_at INTEGER, resolved_by TEXT)`,
    `CREATE INDEX interactions_pending ON interactions (status, deadline)`,
    `CREATE TABLE tool_results (
      tool_call_id TEXT PRIMARY KEY, name TEXT NOT NULL, content TEXT NOT NULL, is_error INTEGER NOT NULL,
      truncated INTEGER NOT NULL, at INTEGER NOT NULL)`,
    `CREATE TABLE tool_runs (tool_call_id TEXT PRIMARY KEY, started_at INTEGER NOT NULL)`,
    `CREATE TABLE inbox (id TEXT PRIMARY KEY, position INTEGER NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL)`,
    `CREATE TABLE permission_rules (tool_name TEXT PRIMARY KEY, behavior TEXT NOT NULL, at INTEGER NOT NULL)`,
    `CREATE TABLE notes (key TEXT PRIMARY KEY, text TEXT NOT NULL, updated_at INTEGER NOT NULL)`,
  ],
  [
    // Messages by the request that sent them, so a resend after a lost ack is not a second message.
    `CREATE TABLE sent_messages (request_key TEXT PRIMARY KEY, text_hash INTEGER NOT NULL, message_id TEXT NOT NULL, queued INTEGER NOT NULL, at INTEGER NOT NULL)`,
  ],
  [
    // Interactions get ids of their own: a tool may open several forms while it runs (ctx.elicit).
    `ALTER TABLE interactions RENAME COLUMN tool_call_id TO id`,
    `ALTER TABLE interactions ADD COLUMN tool_call_id TEXT NOT NULL DEFAULT ''`,
    `UPDATE interactions SET tool_call_id = id`,
    `CREATE INDEX interactions_by_tool_call ON interactions (tool_call_id)`,
  ],
  [
    // The agent stack: each delegated agent's frame, and the frame each transcript message belongs to.
    `CREATE TABLE frames (
      id TEXT PRIMARY KEY, parent_frame_id TEXT NOT NULL, parent_tool_call_id TEXT NOT NULL UNIQUE,
      agent TEXT NOT NULL, task TEXT NOT NULL, depth INTEGER NOT NULL, status TEXT NOT NULL,
      iterations INTEGER NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER)`,
    `CREATE INDEX frames_active ON frames (status, depth)`,
    `ALTER TABLE messages ADD COLUMN frame_id TEXT NOT NULL DEFAULT 'main'`,
    `CREATE INDEX messages_by_frame ON messages (frame_id, id)`,
  ],
  [
    // One Web Push subscription per device; a newer one from the same device replaces it. `url` is the
    // session link with the token the device subscribed with, `link_id` that token's share link (NULL: owner).
    `CREATE TABLE push_subscriptions (
      device_id TEXT PRIMARY KEY, subscription TEXT NOT NULL, url TEXT NOT NULL, link_id TEXT, at INTEGER NOT NULL)`,
    // Push and webhook deliveries: side effects of stored card events, retried on the one alarm.
    `CREATE TABLE deliveries (
      id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, target TEXT NOT NULL, change TEXT NOT NULL,
      interaction_id TEXT NOT NULL, notice TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL,
      next_at INTEGER, last_status INTEGER, last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
    `CREATE INDEX deliveries_due ON deliveries (status, next_at)`,
    // Per MCP server: how to resume its session, and its cached tool list (src/session/stores/mcp-store.ts).
    `CREATE TABLE mcp_servers (
      name TEXT PRIMARY KEY, session_id TEXT, protocol_version TEXT, discover TEXT, tools TEXT,
      listed_at INTEGER, stale INTEGER NOT NULL, error TEXT, failed_at INTEGER)`,
    // An MCP tool call waiting for input (2026-07-28 input_required): its rounds, stored with the call.
    `CREATE TABLE mcp_calls (tool_call_id TEXT PRIMARY KEY, server TEXT NOT NULL, state TEXT NOT NULL, at INTEGER NOT NULL)`,
  ],
  [
    // Small images a tool result shows the model (MCP image content), as JSON [{ mediaType, data }].
    `ALTER TABLE tool_results ADD COLUMN images TEXT`,
  ],
  [
    // The frame whose tool call an interaction belongs to: a parent's cards stay open while its child runs.
    `ALTER TABLE interactions ADD COLUMN frame_id TEXT NOT NULL DEFAULT 'main'`,
    // Rows from before: the frame whose assistant message holds the tool call.
    `UPDATE interactions SET frame_id = COALESCE((
      SELECT m.frame_id FROM messages m, json_each(m.content) b
      WHERE m.role = 'assistant' AND json_extract(b.value, '$.id') = interactions.tool_call_id
      ORDER BY m.id DESC LIMIT 1), 'main')`,
  ],
  [
    // An external agent's own id for a card it opened (Claude Code's tool_use_id): a retry finds it.
    `ALTER TABLE interactions ADD COLUMN external_key TEXT`,
    `CREATE UNIQUE INDEX interactions_by_external_key ON interactions (external_key) WHERE external_key IS NOT NULL`,
  ],
  [
    // Changes reported to the creator's inbox, written with the event they follow and deleted once
    // the inbox has them. AUTOINCREMENT: a seq is never reused, since the inbox skips seqs it applied.
    `CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, entry TEXT NOT NULL, at INTEGER NOT NULL)`,
    // Who answered, as the server knows them (a person, or a link's label), beside the device id.
    `ALTER TABLE interactions ADD COLUMN answered_by TEXT`,
  ],
  [
    // The agent link that opened an external card: only that link (or the owner) may withdraw it.
    `ALTER TABLE interactions ADD COLUMN opened_by_link TEXT`,
  ],
  [
    // Every tool's own state (src/tools/tool-state.ts): JSON by tool and key.
    `CREATE TABLE tool_state (
      tool TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, updated_at INTEGER NOT NULL,
      PRIMARY KEY (tool, key))`,
  ],
  [
    // Each card's deadline policy as it opened (what its deadline does, its maximum, reminders and
    // extension step), and when its next reminder is due.
    `CREATE TABLE card_deadlines (interaction_id TEXT PRIMARY KEY, policy TEXT NOT NULL, max_at INTEGER NOT NULL, reminder_at INTEGER)`,
    `CREATE INDEX card_deadlines_reminders ON card_deadlines (reminder_at) WHERE reminder_at IS NOT NULL`,
  ],
  [
    // At most one summary waits in the outbox: a newer one replaces it in the statement that adds it.
    `CREATE UNIQUE INDEX outbox_one_summary ON outbox (type) WHERE type = 'session_updated'`,
  ],
  [
    // Who decided a card, structured (src/protocol/cards/decider.ts), as JSON beside answered_by.
    `ALTER TABLE interactions ADD COLUMN decider TEXT`,
  ],
  [
    // Cards a deployment's rule made wait for several distinct approvals: how many, and who so far.
    `CREATE TABLE card_approvals (interaction_id TEXT PRIMARY KEY, needed INTEGER NOT NULL, approvers TEXT NOT NULL)`,
  ],
  [
    // The person's messages to an agent that runs elsewhere, in the order sent, and which bridge
    // acknowledged each. AUTOINCREMENT: a bridge resumes after a message, so an order is never reused.
    `CREATE TABLE agent_messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT NOT NULL UNIQUE, text TEXT NOT NULL,
      interrupt INTEGER NOT NULL, at INTEGER NOT NULL, delivered_by TEXT, delivered_at INTEGER)`,
  ],
  [
    // Per subscribed device: whether an approval's notification carries Approve and Deny (1) or
    // only opens the card (0), as the inbox keeps it for its own devices.
    `ALTER TABLE push_subscriptions ADD COLUMN actions INTEGER NOT NULL DEFAULT 1`,
  ],
  [
    // A card's escalation ladder as it climbs: how many rungs ran (with when, as JSON), and when
    // the next one is due (null once none is left).
    `CREATE TABLE card_escalations (interaction_id TEXT PRIMARY KEY, climbed TEXT NOT NULL, next_at INTEGER)`,
  ],
  [
    // The outbox's rows take the one delivery shape (src/notify/delivery-rows.ts): leased while
    // sent, kept once the inbox has them (their entry dropped) for the session's delivery log, and
    // each its own retry, where the queue's one retry in `meta` was. Rows waiting keep it.
    `ALTER TABLE outbox RENAME COLUMN seq TO id`,
    `ALTER TABLE outbox RENAME COLUMN at TO created_at`,
    `ALTER TABLE outbox ADD COLUMN interaction_id TEXT`,
    `ALTER TABLE outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'`,
    `ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE outbox ADD COLUMN next_at INTEGER`,
    `ALTER TABLE outbox ADD COLUMN last_status INTEGER`,
    `ALTER TABLE outbox ADD COLUMN last_error TEXT`,
    `ALTER TABLE outbox ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0`,
    `UPDATE outbox SET updated_at = created_at,
       interaction_id = CASE WHEN json_valid(entry)
         THEN COALESCE(json_extract(entry, '$.card.interactionId'), json_extract(entry, '$.interactionId')) END,
       attempts = COALESCE((SELECT json_extract(value, '$.attempts') FROM meta WHERE key = 'outbox_retry'), 0),
       next_at = MAX(created_at, COALESCE((SELECT json_extract(value, '$.at') FROM meta WHERE key = 'outbox_retry'), 0))`,
    `DELETE FROM meta WHERE key = 'outbox_retry'`,
    // One summary not yet tried waits at most; one already tried stays in its place until it arrives.
    `DROP INDEX outbox_one_summary`,
    `CREATE UNIQUE INDEX outbox_one_summary ON outbox (type)
       WHERE type = 'session_updated' AND status = 'pending' AND attempts = 0`,
  ],
];

/** The schema version a database has once every migration ran. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database up to the last migration; safe to run on every constructor call. */
export function migrate(sql: SqlStorage): void {
  // Checked with a read first: SQLite counts `CREATE TABLE IF NOT EXISTS` as a write even when the
  // table exists, and a write on every wake would open a transaction the first sends wait on.
  const hasMeta =
    sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).toArray().length > 0;
  if (!hasMeta) sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  const row = sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`).toArray()[0];
  let version = row ? Number(row.value) : 0;
  while (version < MIGRATIONS.length) {
    for (const statement of MIGRATIONS[version] ?? []) {
      if (statement.startsWith("CREATE TABLE meta")) continue;
      sql.exec(statement);
    }
    version += 1;
    sql.exec(
      `INSERT INTO meta (key, value) VALUES ('schema_version', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      String(version),
    );
  }
}
