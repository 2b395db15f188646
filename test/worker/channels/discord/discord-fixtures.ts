// Discord as the channel tests see it: interactions signed with the application's Ed25519 key as
// Discord signs them, and what the REST API stand-in was asked.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { DISCORD_CONTROL_HOST, type DiscordCall } from "../../../helpers/discord-api";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { ORIGIN } from "../../../helpers/session-harness";
import { inboxObject, type Person } from "../../inbox/inbox-fixtures";

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string;
}

let interactionCount = 0;
let signingKey: Promise<CryptoKey> | null = null;

function privateKey(): Promise<CryptoKey> {
  const jwk = JSON.parse((env as unknown as { DISCORD_TEST_SIGNING_KEY: string }).DISCORD_TEST_SIGNING_KEY);
  signingKey ??= crypto.subtle.importKey("jwk", jwk, { name: "Ed25519" }, false, [
    "sign",
  ]) as Promise<CryptoKey>;
  return signingKey;
}

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** Discord's two headers for `body`: the Ed25519 signature of timestamp + body, and the timestamp. */
export async function signed(body: string, at = Date.now()): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(at / 1000));
  const signature = await crypto.subtle.sign(
    "Ed25519",
    await privateKey(),
    new TextEncoder().encode(timestamp + body),
  );
  return { "x-signature-ed25519": hex(signature), "x-signature-timestamp": timestamp };
}

/** Posts one interaction to the endpoint as Discord does; `headers` replaces the signature when given. */
export async function sendInteraction(
  interaction: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<Response> {
  interactionCount += 1;
  const body = JSON.stringify({
    id: `9${interactionCount}`,
    application_id: "1100000000000000001",
    token: `interaction-token-${interactionCount}`,
    version: 1,
    ...interaction,
  });
  return exports.default.fetch(`${ORIGIN}/api/channels/discord`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(headers ?? (await signed(body))) },
    body,
  });
}

/** The bot's direct message channel with `user` (its id, as the stand-in knows it). */
export function dmOf(user: DiscordUser): string {
  return `7${user.id}`;
}

/** Where an interaction came from: `user`'s DM with the bot, unless a server channel is given. */
function place(user: DiscordUser, guild?: { guildId: string; channelId: string }) {
  if (guild)
    return {
      guild_id: guild.guildId,
      channel: { id: guild.channelId, type: 0 },
      channel_id: guild.channelId,
      context: 0,
      member: { user },
    };
  return { channel: { id: dmOf(user), type: 1 }, channel_id: dmOf(user), context: 1, user };
}

export function commandFrom(user: DiscordUser, code: string, guild?: { guildId: string; channelId: string }) {
  return {
    type: 2,
    ...place(user, guild),
    data: {
      id: "1",
      name: "parley",
      type: 1,
      options: [{ name: "link", type: 1, options: [{ name: "code", type: 3, value: code }] }],
    },
  };
}

/** What a receipt keeps of a card's buttons: Message, which still writes to the card's session. */
export const RECEIPT_COMPONENTS = [
  { type: 1, components: [{ type: 2, style: 2, label: "Message", custom_id: "message" }] },
];

export function pressFrom(
  user: DiscordUser,
  customId: string,
  guild?: { guildId: string; channelId: string },
) {
  return {
    type: 3,
    ...place(user, guild),
    message: { id: "1", channel_id: dmOf(user) },
    data: { custom_id: customId, component_type: 2 },
  };
}

/** A press of Message on message `messageId` (as Discord reports the message a button sits on). */
export function messageFrom(
  user: DiscordUser,
  messageId: string | undefined,
  guild?: { guildId: string; channelId: string },
) {
  const press = pressFrom(user, "message", guild);
  return messageId === undefined
    ? { ...press, message: undefined }
    : { ...press, message: { ...press.message, id: messageId } };
}

/** The Message modal's submission, in Discord's Label layout, opened from message `messageId`. */
export function messageModalFrom(
  user: DiscordUser,
  customId: string,
  text: string,
  { messageId, guild }: { messageId?: string; guild?: { guildId: string; channelId: string } } = {},
) {
  return {
    type: 5,
    ...place(user, guild),
    ...(messageId ? { message: { id: messageId, channel_id: dmOf(user) } } : {}),
    data: {
      custom_id: customId,
      components: [{ type: 18, id: 1, component: { type: 4, id: 2, custom_id: "message", value: text } }],
    },
  };
}

/** The platform's id of the message card `interactionId` was posted as, as the inbox keeps it. */
export async function messageIdOf(person: Person, interactionId: string): Promise<string | null> {
  return runInDurableObject(
    inboxObject(person.email),
    (_, state) =>
      state.storage.sql
        .exec<{ message_id: string | null }>(
          `SELECT message_id FROM chat_deliveries WHERE interaction_id = ? AND change = 'opened'`,
          interactionId,
        )
        .one().message_id,
  );
}

/** A modal's submission with `text` in its one input, as Discord sends it back. */
export function modalFrom(user: DiscordUser, customId: string, text: string) {
  return {
    type: 5,
    ...place(user),
    data: {
      custom_id: customId,
      components: [{ type: 1, components: [{ type: 4, custom_id: "text", value: text }] }],
    },
  };
}

/** What an interaction was answered: Discord's response type and data. */
export async function answerOf(response: Response) {
  expect(response.status).toBe(200);
  return (await response.json()) as {
    type: number;
    data?: { content?: string; flags?: number; custom_id?: string; title?: string; components?: unknown[] };
  };
}

export async function discordCalls(): Promise<DiscordCall[]> {
  return (await fetch(`http://${DISCORD_CONTROL_HOST}/calls`)).json();
}

/** The calls naming channel `channelId`: "post" made messages, "edit" changed them. */
export async function callsTo(channelId: string, kind?: "post" | "edit"): Promise<DiscordCall[]> {
  const method = kind === "post" ? "POST" : kind === "edit" ? "PATCH" : undefined;
  return (await discordCalls()).filter(
    (call) => call.channelId === channelId && (method === undefined || call.method === method),
  );
}

/** The next `statuses.length` calls to the channel fail; `lost` makes each after the message was made. */
export async function failNext(channelId: string, statuses: number[], lost = false): Promise<void> {
  await fetch(
    `http://${DISCORD_CONTROL_HOST}/fail?channel=${channelId}&statuses=${statuses.join(",")}${lost ? "&lost=1" : ""}`,
  );
}

/** Links `user`'s Discord account to `person` with a fresh code, as the inbox page does it. */
export async function link(person: Person, user: DiscordUser): Promise<void> {
  const minted = await person.api("POST", "/api/channels/link-codes", { body: { platform: "discord" } });
  expect(minted.status).toBe(201);
  const { code } = (await minted.json()) as { code: string };
  const answered = await answerOf(await sendInteraction(commandFrom(user, code)));
  expect(answered.data?.content).toContain("Linked to Parley");
}

/** Runs the inbox's alarm until `channelId` has `count` calls of `kind`. */
export async function sentTo(person: Person, channelId: string, kind: "post" | "edit", count: number) {
  await expect
    .poll(async () => {
      await runDurableObjectAlarm(inboxObject(person.email));
      return (await callsTo(channelId, kind)).length;
    })
    .toBeGreaterThanOrEqual(count);
  return callsTo(channelId, kind);
}

/** The custom_id of each button of a posted card, by label. */
export function buttonsOf(call: DiscordCall): Record<string, string> {
  const rows = (call.body.components ?? []) as { components: { label: string; custom_id?: string }[] }[];
  const buttons = rows.flatMap((row) => row.components);
  return Object.fromEntries(buttons.filter((b) => b.custom_id).map((b) => [b.label, b.custom_id as string]));
}
