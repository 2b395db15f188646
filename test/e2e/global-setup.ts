// Builds the page, the Worker and dist/ once, and starts one `wrangler dev` with scripted sessions
// allowed, for the whole browser suite.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { startWranglerDev, writePrebuiltConfig } from "../../scripts/wrangler-dev.mjs";
import { discordBindings, serveDiscordApi } from "../helpers/discord-api";
import { NOTIFY_BINDINGS } from "../helpers/notify-bindings";
import { SLACK_BINDINGS, serveSlackApi } from "../helpers/slack-api";
import { serveTelegramApi, TELEGRAM_BINDINGS } from "../helpers/telegram-api";
import { freePorts } from "../mcp-servers/free-ports";
import { startTestServers, type TestServerPorts, testMcpServers } from "../mcp-servers/test-servers";
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH, hasChromium, hasHeadlessShell } from "./browser-env";
import { hasTmux } from "./tmux-terminal";

const ROOT = new URL("../../", import.meta.url).pathname;

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // With CI=true a missing browser or terminal fails the run: skipped tests would pass in silence.
  if (process.env.CI === "true") {
    const missing = [
      hasChromium ? null : `${CHROMIUM_PATH} (apt-get install chromium)`,
      hasHeadlessShell ? null : `${HEADLESS_SHELL_PATH} (apt-get install chromium-headless-shell)`,
      hasTmux ? null : "tmux (apt-get install tmux)",
    ].filter((tool) => tool !== null);
    if (missing.length > 0) throw new Error(`CI=true but ${missing.join(", ")} is missing`);
  }
  if (hasChromium && !hasHeadlessShell) {
    console.warn(
      `browser tests use the full chromium: ${HEADLESS_SHELL_PATH} not found (apt-get install chromium-headless-shell runs them on a quarter less CPU)`,
    );
  }
  if (!hasChromium) {
    console.warn(`browser tests skipped: ${CHROMIUM_PATH} not found (apt-get install chromium)`);
    project.provide("baseUrl", "");
    project.provide("gatewayToken", "");
    project.provide("telegramApiUrl", "");
    project.provide("slackApiUrl", "");
    project.provide("discordApiUrl", "");
    project.provide("discordSigningKey", "");
    return undefined;
  }
  // One build for every server and bridge of the run: each `wrangler dev` started from here on (the
  // restart tests start their own) serves it without building again, and the bridges the agent
  // tests spawn run dist/ as built from the current sources.
  // In CI the deploy dry run has just built the page and the Worker from the same sources, and
  // `npm ci` dist/ (.ci/run writes PARLEY_BUILT's file once the dry run succeeded).
  const built = process.env.PARLEY_BUILT;
  if (built && existsSync(built))
    console.log("browser suite: the page, the Worker and dist/ as the dry run built them");
  else await buildOnce();
  const prebuilt = await writePrebuiltConfig();
  process.env.PARLEY_WRANGLER_CONFIG = prebuilt.path;
  // The test MCP servers run for the whole suite; sessions pick them by name.
  const [everything, killable, mrtr, garbage, down, control] = await freePorts(6);
  const ports = { everything, killable, mrtr, garbage, down, control } as TestServerPorts;
  const stopMcp = await startTestServers(ports);
  const mcpServers = testMcpServers(ports);
  // A Telegram bot whose Bot API is the recorded stand-in, on a loopback port.
  const telegram = await serveTelegramApi();
  // A Slack app whose Web API is the recorded stand-in, on another loopback port.
  const slack = await serveSlackApi();
  // A Discord application with a key pair made for this run, its REST API the recorded stand-in.
  const discord = await serveDiscordApi();
  const { DISCORD_TEST_SIGNING_KEY, ...discordVars } = await discordBindings(discord.url);
  const server = await startWranglerDev({
    // VAPID keys turn on "Notify this device"; no webhook, which would only retry into the void.
    vars: {
      ALLOW_SCRIPTED_SESSIONS: "true",
      MCP_SERVERS: mcpServers,
      VAPID_PUBLIC_KEY: NOTIFY_BINDINGS.VAPID_PUBLIC_KEY,
      VAPID_PRIVATE_KEY: NOTIFY_BINDINGS.VAPID_PRIVATE_KEY,
      VAPID_SUBJECT: NOTIFY_BINDINGS.VAPID_SUBJECT,
      // The stand-in push endpoint of reach.test.ts is on parley.invalid; home-screen-app.test.ts
      // runs its push service on a loopback port, which a server on loopback takes over http.
      PUSH_SERVICE_DOMAINS: `${NOTIFY_BINDINGS.PUSH_SERVICE_DOMAINS},127.0.0.1`,
      ...TELEGRAM_BINDINGS,
      TELEGRAM_API_BASE_URL: telegram.url,
      ...SLACK_BINDINGS,
      SLACK_API_BASE_URL: `${slack.url}/api/`,
      ...discordVars,
      // A push needs a second person (two-person-approval.test.ts).
      APPROVAL_POLICIES: JSON.stringify([{ rule: "Bash(git push:*)", approvals: 2 }]),
    },
    verbose: process.env.E2E_VERBOSE === "1",
  });
  // startWranglerDev answers once the Worker itself has loaded, so no test's time limit pays for it.
  project.provide("baseUrl", server.baseUrl);
  project.provide("gatewayToken", server.gatewayToken);
  project.provide("mcpServers", mcpServers);
  project.provide("mcpControlUrl", `http://127.0.0.1:${ports.control}`);
  project.provide("telegramApiUrl", telegram.url);
  project.provide("slackApiUrl", slack.url);
  project.provide("discordApiUrl", discord.url);
  project.provide("discordSigningKey", DISCORD_TEST_SIGNING_KEY);
  return async () => {
    await server.stop();
    await telegram.stop();
    await slack.stop();
    await discord.stop();
    await stopMcp();
    await prebuilt.remove();
  };
}

/** The page (web/public), the split Worker (build/worker) and dist/, built side by side. */
async function buildOnce(): Promise<void> {
  const run = promisify(execFile);
  const scripts = ["scripts/build-web.mjs", "scripts/build-worker.mjs", "scripts/build-client.mjs"];
  await Promise.all(scripts.map((script) => run(process.execPath, [script], { cwd: ROOT })));
}
