// `parley attach`: a terminal becomes one more device of a session, its share link read from a file,
// a prompt or standard input (never an argument). `parley vapid-keys`
// prints a fresh VAPID key pair for Web Push. `parley mcp` and `parley hook` bridge Claude Code to
// a session; `parley acp` bridges any Agent Client Protocol agent; `parley channels` sets up a chat
// platform. Exit codes: 0 left cleanly, 1 failure, 2 bad link or usage.
//
// Each command's code is loaded when that command runs (the bundle is split per command): Claude
// Code runs `parley hook` several times for every tool call, and a hook that parsed and ran every
// other command's modules took twice the CPU to start.
import process from "node:process";
import { fail, USAGE } from "./cli-usage";

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

type Command = (args: string[]) => Promise<void>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  attach: async () => (await import("./parley-attach")).runAttach,
  "vapid-keys": async () => vapidKeys,
  mcp: async () => (await import("./parley-mcp")).runMcp,
  hook: async () => (await import("./parley-hook")).runHook,
  acp: async () => (await import("./parley-acp")).runAcp,
  daemon: async () => (await import("./parley-daemon")).runDaemon,
  "claude-code": async () => (await import("./claude-code-runner")).runClaudeCode,
  channels: async () => (await import("./parley-channels-setup")).runChannels,
};

const [command, ...rest] = process.argv.slice(2);
const load = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
if (!load) fail(command ? `unknown command: ${command}\n${USAGE}` : USAGE, 2);
await (await load())(rest);
