// The Worker's bindings, declared once (see wrangler.toml); its variables come from the config
// schema (`ConfigVars` in config.ts, documented in README "Configuration").
type ConfigVars = import("./config").ConfigVars;

declare namespace Cloudflare {
  interface Env extends ConfigVars {
    /** Typed by the RPC surface the Worker may call, not the class: see src/objects/contracts/. */
    SESSIONS: DurableObjectNamespace<import("./objects/contracts/session").SessionRpc>;
    /** One Inbox object per person (docs/inbox.md#the-inbox). */
    INBOXES: DurableObjectNamespace<import("./objects/contracts/inbox").InboxRpc>;
    /** The chat channels' one object: linked accounts and webhooks (src/channels/channel-object.ts). */
    CHANNELS: DurableObjectNamespace<import("./objects/contracts/channel").ChannelRpc>;
    /** One Machines object per person: their `parley daemon`s (src/machines/machine-object.ts). */
    MACHINES: DurableObjectNamespace<import("./objects/contracts/machines").MachinesRpc>;
    ASSETS?: Fetcher;
    /** Email Service (wrangler.toml's send_email): verification codes and escalations (src/email/). */
    EMAIL?: SendEmail;
    /** Workers Rate Limiting binding: session creations per client IP (wrangler.toml). */
    SESSION_CREATION_LIMITER?: RateLimit;
    /** Tests only: "true" compares every kept copy of stored rows with storage after each input. */
    SHADOW_READS?: string;
  }
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "SessionObject" | "InboxObject" | "ChannelObject" | "MachinesObject";
  }
}
interface Env extends Cloudflare.Env {}
