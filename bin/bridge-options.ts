// The options every Claude Code bridge takes (`parley mcp`, `parley hook`) and the one place that
// turns them into an ExternalAgent: where Parley is, which agent key or agent link to use, what the
// session is called. No credential, a bad link, or a credential that could answer cards is one line
// on stderr and exit code 2 (client/credential-kind.ts decides which).
import process from "node:process";
import { parseArgs } from "node:util";
import { BadLinkError, bridgeCredentialRefusal, ExternalAgent, parseShareLink } from "../client/client";

export const BRIDGE_OPTIONS = {
  server: { type: "string" },
  "agent-key": { type: "string" },
  token: { type: "string" },
  link: { type: "string" },
  title: { type: "string" },
  name: { type: "string" },
  "unreachable-seconds": { type: "string" },
} as const;

export interface BridgeSettings {
  server?: string;
  agentKey?: string;
  token?: string;
  link?: string;
  title?: string;
  name: string;
  /** How long Parley may stay out of reach before the bridge gives up on a request. */
  unreachableMs: number;
}

export function fail(message: string, code: number): never {
  process.stderr.write(`parley: ${message}\n`);
  process.exit(code);
}

/**
 * `--token -x…` as `--token=-x…`: a credential is base64url and may begin with a dash, which
 * parseArgs would take for an option. Only a bridge option's own name is never a value.
 */
function valuesJoined(args: string[]): string[] {
  const isOption = (arg: string) => Object.hasOwn(BRIDGE_OPTIONS, arg.replace(/^--/, "").split("=")[0] ?? "");
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    const next = args[index + 1];
    if (
      arg.startsWith("--") &&
      !arg.includes("=") &&
      isOption(arg) &&
      next?.startsWith("-") &&
      !(next.startsWith("--") && isOption(next))
    ) {
      joined.push(`${arg}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * Reads the bridge's flags (and PARLEY_SERVER / PARLEY_AGENT_KEY / PARLEY_LINK, and PARLEY_TOKEN,
 * which only an agent key may fill); bad ones, none at all, and any credential that can answer, exit 2.
 */
export function readBridgeArgs(
  args: string[],
  usage: string,
  defaultUnreachableSeconds: number,
): { settings: BridgeSettings; positionals: string[] } {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof BRIDGE_OPTIONS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: valuesJoined(args), options: BRIDGE_OPTIONS, allowPositionals: true });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`, 2);
  }
  const values = parsed.values;
  const server = values.server ?? process.env.PARLEY_SERVER;
  const agentKey = values["agent-key"] ?? process.env.PARLEY_AGENT_KEY;
  const token = values.token ?? process.env.PARLEY_TOKEN;
  const link = values.link ?? process.env.PARLEY_LINK;
  const refused = bridgeCredentialRefusal({ agentKey, token, link });
  if (refused) fail(refused, 2);
  if (!server && !link) fail(`give --server URL or --link AGENT_LINK\n${usage}`, 2);
  // Never echoed: a link is a credential, and stderr ends up in the agent's logs.
  if (link && !parseShareLink(link))
    fail("--link is not a Parley agent link (expected https://host/#/s/<id>?token=…)", 2);
  if (server && !link) {
    try {
      const url = new URL(server);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
    } catch {
      fail(`--server must be an http(s) address, not ${server}`, 2);
    }
  }
  const seconds = Number(values["unreachable-seconds"] ?? defaultUnreachableSeconds);
  if (!Number.isFinite(seconds) || seconds <= 0) fail("--unreachable-seconds takes a positive number", 2);
  return {
    settings: {
      ...(server ? { server } : {}),
      ...(agentKey ? { agentKey } : {}),
      ...(token ? { token } : {}),
      ...(link ? { link } : {}),
      ...(values.title ? { title: values.title } : {}),
      name: values.name ?? "Claude Code",
      unreachableMs: seconds * 1000,
    },
    positionals: parsed.positionals,
  };
}

/**
 * Connects the bridge's agent: finds or creates the session keyed by `key`, telling a new one the
 * folder the agent works in (`cwd`, when the bridge knows it) for its page to show.
 */
export function connectAgent(
  settings: BridgeSettings,
  key: string | undefined,
  cwd?: string,
): Promise<ExternalAgent> {
  return ExternalAgent.connect(
    {
      name: settings.name,
      ...(settings.server ? { server: settings.server } : {}),
      ...(settings.agentKey ? { agentKey: settings.agentKey } : {}),
      ...(settings.token ? { token: settings.token } : {}),
      ...(settings.link ? { link: settings.link } : {}),
      ...(settings.title ? { title: settings.title } : {}),
      ...(key ? { key } : {}),
      ...(cwd ? { cwd } : {}),
    },
    Date.now() + settings.unreachableMs,
  );
}

export { BadLinkError };
