// The Worker's bindings and variables, declared once (see wrangler.toml and README "Configuration").
declare namespace Cloudflare {
  interface Env {
    SESSIONS: DurableObjectNamespace<import("./session/session-object").SessionObject>;
    /** One Inbox object per person (DESIGN §21). */
    INBOXES: DurableObjectNamespace<import("./inbox/inbox-object").InboxObject>;
    ASSETS?: Fetcher;
    /** Bearer token required to create sessions; open when unset (local dev). */
    GATEWAY_TOKEN?: string;
    /** Key for session capability tokens (HMAC-SHA256 of the session id). */
    SESSION_SECRET?: string;
    ANTHROPIC_API_KEY?: string;
    ANTHROPIC_MODEL?: string;
    ANTHROPIC_BASE_URL?: string;
    ANTHROPIC_MAX_TOKENS?: string;
    INTERACTION_TIMEOUT_MS?: string;
    MAX_TURN_ITERATIONS?: string;
    /** Days an idle session is kept (default 30); its devices are warned a day before. */
    SESSION_RETENTION_DAYS?: string;
    MODEL_RETRY_BASE_MS?: string;
    MODEL_RETRY_GIVE_UP_MS?: string;
    MODEL_CONTEXT_TOKENS?: string;
    SOCKET_COMMAND_BURST?: string;
    SOCKET_COMMANDS_PER_SECOND?: string;
    /** Workers Rate Limiting binding: session creations per client IP (wrangler.toml). */
    SESSION_CREATION_LIMITER?: RateLimit;
    /** "true" lets `POST /api/sessions` carry a model script (tests, e2e, benchmarks). */
    ALLOW_SCRIPTED_SESSIONS?: string;
    /** JSON array of MCP servers sessions may use (README "MCP servers"). */
    MCP_SERVERS?: string;
    /** Cloudflare Access in front of the deployment: the team's host and the application's audience tag. */
    ACCESS_TEAM_DOMAIN?: string;
    ACCESS_AUD?: string;
    /** "true": sessions do not report to their creator's inbox. */
    INBOX_DISABLED?: string;
  }
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "SessionObject" | "InboxObject";
  }
}
interface Env extends Cloudflare.Env {}
