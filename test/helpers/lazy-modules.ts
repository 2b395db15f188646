// Every module the Worker imports on first use (a dynamic `import()` in src/), keyed as the
// bundler names it: a file's path, or a package's name. test/build/first-use-imports.test.ts checks
// that this list is complete; test/worker/lazy-modules.test.ts evaluates each one in the runtime.
export const LAZY_MODULES: Record<string, () => Promise<object>> = {
  "src/router/app.ts": () => import("../../src/router/app"),
  "src/session/session-object.ts": () => import("../../src/session/session-object"),
  "src/inbox/inbox-object.ts": () => import("../../src/inbox/inbox-object"),
  "src/router/sessions/mcp-endpoint.ts": () => import("../../src/router/sessions/mcp-endpoint"),
  "src/model/anthropic-client.ts": () => import("../../src/model/anthropic-client"),
  "src/tools/html-to-text.ts": () => import("../../src/tools/html-to-text"),
  "src/channels/channel-object.ts": () => import("../../src/channels/channel-object"),
  "src/machines/machine-object.ts": () => import("../../src/machines/machine-object"),
  "src/channels/telegram/telegram-bot.ts": () => import("../../src/channels/telegram/telegram-bot"),
  "src/channels/telegram/telegram-adapter.ts": () => import("../../src/channels/telegram/telegram-adapter"),
  "src/channels/slack/slack-bot.ts": () => import("../../src/channels/slack/slack-bot"),
  "src/channels/slack/slack-adapter.ts": () => import("../../src/channels/slack/slack-adapter"),
  "src/channels/discord/discord-bot.ts": () => import("../../src/channels/discord/discord-bot"),
  "src/channels/discord/discord-adapter.ts": () => import("../../src/channels/discord/discord-adapter"),
  "src/channels/discord/discord-form.ts": () => import("../../src/channels/discord/discord-form"),
  "src/router/credentials/access-assertion-jose.ts": () =>
    import("../../src/router/credentials/access-assertion-jose"),
  "@block65/webcrypto-web-push": () => import("@block65/webcrypto-web-push"),
  "src/mcp/mcp-sdk.ts": () => import("../../src/mcp/mcp-sdk"),
  unbash: () => import("unbash"),
};
