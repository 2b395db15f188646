// The Worker's bindings, declared once (see wrangler.toml); its variables come from the config
// schema (`ConfigVars` in config.ts, documented in README "Configuration").
type ConfigVars = import("./config").ConfigVars;

declare namespace Cloudflare {
  interface Env extends ConfigVars {
    SESSIONS: DurableObjectNamespace<import("./session/session-object").SessionObject>;
    /** One Inbox object per person (DESIGN §21). */
    INBOXES: DurableObjectNamespace<import("./inbox/inbox-object").InboxObject>;
    /** The chat channels' one object: linked accounts and webhooks (src/channels/channel-object.ts). */
    CHANNELS: DurableObjectNamespace<import("./channels/channel-object").ChannelObject>;
    ASSETS?: Fetcher;
    /** Workers Rate Limiting binding: session creations per client IP (wrangler.toml). */
    SESSION_CREATION_LIMITER?: RateLimit;
  }
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "SessionObject" | "InboxObject" | "ChannelObject";
  }
}
interface Env extends Cloudflare.Env {}
