// The Worker's bindings and variables, declared once (see wrangler.toml and README "Configuration").
declare namespace Cloudflare {
  interface Env {
    SESSIONS: DurableObjectNamespace<import("./session/session-object").SessionObject>;
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
    /** "true" lets `POST /api/sessions` carry a model script (tests, e2e, benchmarks). */
    ALLOW_SCRIPTED_SESSIONS?: string;
    /** JSON array of MCP servers sessions may use (README "MCP servers"). */
    MCP_SERVERS?: string;
  }
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "SessionObject";
  }
}
interface Env extends Cloudflare.Env {}
