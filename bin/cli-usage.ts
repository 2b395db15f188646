// What every `parley` command says when it is used wrongly or fails: the usage text and the one way
// out, printed inert.
import process from "node:process";
import { inert } from "../src/protocol/text/inert-text";

export const USAGE = `Usage:
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

/** Prints `message` inert and exits with `code` (1 failure, 2 bad link or usage). */
export function fail(message: string, code: number): never {
  // Server messages and the link itself end up here: printed inert, like everything else.
  process.stderr.write(`parley: ${inert(message)}\n`);
  process.exit(code);
}
