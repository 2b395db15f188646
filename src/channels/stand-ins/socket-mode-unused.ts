// Stand-in for `@slack/socket-mode`, which the Chat SDK's Slack adapter imports for its socket mode:
// Parley's adapter runs in webhook mode only (src/channels/slack/slack-adapter.ts), as a Worker receives
// Slack's events over HTTP, so wrangler.toml's [alias] points the package here and the Worker carries
// none of its client (nor its WebSocket and event-emitter dependencies).

export class SocketModeClient {
  constructor() {
    throw new Error("Parley's Slack channel receives events over HTTP, never in socket mode");
  }
}
