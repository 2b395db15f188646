// `parley channels discord --register-commands [--interactions-url <Parley URL>]`: the one-time
// setup of a Discord application — registers the `/parley link <code>` command through Discord's
// REST API and, when asked, points the application's interactions endpoint at Parley.

export interface DiscordSetupOptions {
  applicationId: string;
  botToken: string;
  /** Parley's address, when the interactions endpoint is to be set too. */
  parleyUrl: string | null;
  /** Discord's REST API (a stand-in in tests). */
  apiBaseUrl: string;
}

/** `/parley link <code>`, usable in the bot's direct messages (and refused, with a reason, in a server). */
export const PARLEY_COMMAND = {
  name: "parley",
  description: "Parley: answer your agents' cards from Discord",
  type: 1,
  // Installed to a server or to a user; offered in servers and in the bot's direct messages.
  integration_types: [0, 1],
  contexts: [0, 1],
  options: [
    {
      type: 1,
      name: "link",
      description: "Link this Discord account to your Parley inbox",
      options: [
        {
          type: 3,
          name: "code",
          description: "The code your Parley inbox shows under Link Discord",
          required: true,
          max_length: 32,
        },
      ],
    },
  ],
};

/** Parses `--register-commands [--interactions-url URL] [--application-id I] [--bot-token T] [--api-base-url U]`. */
export function readDiscordArgs(
  args: string[],
  env: Record<string, string | undefined>,
): { ok: true; options: DiscordSetupOptions } | { ok: false; message: string } {
  const flags = new Map<string, string>();
  let register = false;
  for (let i = 0; i < args.length; i += 1) {
    const name = args[i];
    if (name === "--register-commands") {
      register = true;
      continue;
    }
    const value = args[i + 1];
    if (!name?.startsWith("--") || value === undefined || value.startsWith("--"))
      return { ok: false, message: `expected --flag value, got ${name}` };
    flags.set(name.slice(2), value);
    i += 1;
  }
  if (!register) return { ok: false, message: "--register-commands is required" };
  const parleyUrl = flags.get("interactions-url") ?? null;
  if (parleyUrl !== null && !/^https:\/\//.test(parleyUrl))
    return {
      ok: false,
      message: "--interactions-url needs Parley's https:// URL (Discord calls only https)",
    };
  const applicationId = flags.get("application-id") ?? env.DISCORD_APPLICATION_ID;
  const botToken = flags.get("bot-token") ?? env.DISCORD_BOT_TOKEN;
  if (!applicationId || !/^\d{1,20}$/.test(applicationId))
    return { ok: false, message: "--application-id (or DISCORD_APPLICATION_ID) is required, as digits" };
  if (!botToken) return { ok: false, message: "--bot-token (or DISCORD_BOT_TOKEN) is required" };
  const apiBaseUrl = flags.get("api-base-url") ?? env.DISCORD_API_BASE_URL ?? "https://discord.com/api/v10";
  return { ok: true, options: { applicationId, botToken, parleyUrl, apiBaseUrl } };
}

async function call(
  options: DiscordSetupOptions,
  method: string,
  path: string,
  body: unknown,
): Promise<void> {
  const response = await fetch(`${options.apiBaseUrl.replace(/\/+$/, "")}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bot ${options.botToken}` },
    body: JSON.stringify(body),
  });
  if (response.ok) return;
  const said = ((await response.json().catch(() => ({}))) as { message?: string }).message;
  throw new Error(
    `Discord refused ${method} ${path.split("/").slice(0, 2).join("/")}: ${said ?? response.status}`,
  );
}

/** Registers `/parley` (replacing the application's global commands) and sets the endpoint when asked. */
export async function setUpDiscord(options: DiscordSetupOptions): Promise<string> {
  await call(options, "PUT", `/applications/${options.applicationId}/commands`, [PARLEY_COMMAND]);
  const said = ["Registered /parley link <code> for this application."];
  if (options.parleyUrl) {
    const url = `${options.parleyUrl.replace(/\/+$/, "")}/api/channels/discord`;
    // Discord checks the URL as it saves it: a signed ping must get a pong, a forged one a 401.
    await call(options, "PATCH", "/applications/@me", { interactions_endpoint_url: url });
    said.push(`Discord now sends this application's interactions to ${url}.`);
  }
  return said.join("\n");
}
