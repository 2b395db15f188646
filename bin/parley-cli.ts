// `parley attach`: a terminal becomes one more device of a session, its share link read from a file,
// a prompt or standard input (never an argument). `parley vapid-keys`
// prints a fresh VAPID key pair for Web Push. `parley mcp` and `parley hook` bridge Claude Code to
// a session; `parley acp` bridges any Agent Client Protocol agent; `parley channels` sets up a chat
// platform. Exit codes: 0 left cleanly, 1 failure, 2 bad link or usage.
import { hostname } from "node:os";
import process from "node:process";
import { createInterface } from "node:readline";
import { ApiError, fetchSnapshot, parseShareLink, SessionClient } from "../client/client";
import { inert } from "../src/protocol/text/inert-text";
import { readAttachArgs } from "./attach-args";
import { firstLine, linkFromFile } from "./attach-link";
import { runClaudeCode } from "./claude-code-runner";
import { runAcp } from "./parley-acp";
import { readTelegramArgs, setTelegramWebhook } from "./parley-channels";
import { readDiscordArgs, setUpDiscord } from "./parley-channels-discord";
import { runDaemon } from "./parley-daemon";
import { runHook } from "./parley-hook";
import { runMcp } from "./parley-mcp";
import { TerminalDevice } from "./terminal-device";
import { wantsColor } from "./terminal-paint";

const USAGE = `Usage:
  parley attach [--link-file FILE] [--device <name>]
                                                 answer and chat from this terminal; the share link
                                                 is read from FILE, else from standard input (pasted
                                                 when asked, or piped), never from the arguments
  parley vapid-keys                              print a VAPID key pair for Web Push
  parley mcp --server URL --agent-key K | --link L  Claude Code's permission prompt (stdio MCP tool \`approve\`)
  parley hook --server URL --agent-key K | --link L Claude Code command hook (permissions and progress)
  parley acp --server URL --agent-key K | --link L [--prompt TEXT] -- <agent command…>
                                                 an ACP agent's permissions, beside the editor or headless
  parley daemon --server URL --agent-key K --config FILE
                                                 start the agents FILE allows when you ask from any device
  parley claude-code --link L --prompt TEXT -- claude [args…]
                                                 Claude Code headless, continued with each message you send
  parley channels telegram --set-webhook URL [--bot-token T] [--secret-token S]
                                                 point a Telegram bot at Parley's webhook
  parley channels discord --register-commands [--interactions-url URL] [--application-id I] [--bot-token T]
                                                 register /parley for a Discord application (and its endpoint)`;

function fail(message: string, code: number): never {
  // Server messages and the link itself end up here: printed inert, like everything else.
  process.stderr.write(`parley: ${inert(message)}\n`);
  process.exit(code);
}

async function attach(args: string[]): Promise<void> {
  const read = readAttachArgs(args);
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  const { linkFile, device } = read;
  const link = await readLink(linkFile);
  // Never echoed: the link is the credential.
  const route = parseShareLink(link);
  if (!route) fail("not a Parley share link (expected https://host/#/s/<id>?token=…)", 2);
  try {
    await fetchSnapshot(route.baseUrl, route.sessionId, route.token);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      fail(`this link does not open a session: ${error.message}`, 2);
    fail(`cannot reach ${route.baseUrl}: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  if (typeof WebSocket === "undefined") fail(`attach needs Node 22 or newer (this is ${process.version})`, 1);
  const deviceId =
    device ??
    `cli-${
      hostname()
        .replace(/[^\w.-]/g, "")
        .slice(0, 24) || "terminal"
    }`;
  const client = new SessionClient({ ...route, deviceId, client: "terminal" });
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  new TerminalDevice(
    client,
    rl,
    (text) => process.stdout.write(text),
    deviceId,
    process.stdin.isTTY === true,
    wantsColor(process.env, process.stdout.isTTY),
  );
  const leave = () => {
    client.close();
    rl.close();
    process.stdout.write("\nLeft the session. It keeps running; any other device can still answer.\n");
    process.exit(0);
  };
  rl.on("SIGINT", leave);
  rl.on("close", leave);
  process.on("SIGTERM", leave);
  client.connect();
}

/** The share link from `--link-file`, else the first line of standard input (asked for on a terminal). */
async function readLink(linkFile: string | undefined): Promise<string> {
  if (linkFile !== undefined) {
    try {
      return await linkFromFile(linkFile);
    } catch (error) {
      fail(`cannot read --link-file: ${error instanceof Error ? error.message : String(error)}`, 2);
    }
  }
  if (process.stdin.isTTY) process.stderr.write("Paste the session's share link and press Enter: ");
  const link = await firstLine(process.stdin);
  if (!link) fail(`attach needs a share link\n${USAGE}`, 2);
  return link;
}

async function vapidKeys(): Promise<void> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const publicKey = Buffer.from(raw).toString("base64url");
  process.stdout.write(
    `VAPID_PUBLIC_KEY=${publicKey}\nVAPID_PRIVATE_KEY=${jwk.d}\n\n` +
      "Store them as secrets (and set VAPID_SUBJECT to a mailto: or https: contact):\n" +
      "  npx wrangler secret put VAPID_PUBLIC_KEY\n  npx wrangler secret put VAPID_PRIVATE_KEY\n" +
      "For wrangler dev, put both lines in .dev.vars.\n",
  );
}

async function channels([platform, ...args]: string[]): Promise<void> {
  if (platform === "discord") return discordSetup(args);
  if (platform !== "telegram") fail(`channels: unknown platform ${platform ?? "(none)"}\n${USAGE}`, 2);
  const read = readTelegramArgs(args, process.env);
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  try {
    process.stdout.write(`${await setTelegramWebhook(read.options)}\n`);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), 1);
  }
}

async function discordSetup(args: string[]): Promise<void> {
  const read = readDiscordArgs(args, process.env);
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  try {
    process.stdout.write(`${await setUpDiscord(read.options)}\n`);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), 1);
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === "attach") await attach(rest);
else if (command === "vapid-keys") await vapidKeys();
else if (command === "mcp") await runMcp(rest);
else if (command === "hook") await runHook(rest);
else if (command === "acp") await runAcp(rest);
else if (command === "daemon") await runDaemon(rest);
else if (command === "claude-code") await runClaudeCode(rest);
else if (command === "channels") await channels(rest);
else fail(command ? `unknown command: ${command}\n${USAGE}` : USAGE, 2);
