// Chat channels (Telegram, Slack): what the person sends to link a chat account to their inbox,
// and how a linked account is listed among their devices.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";

export const ChatPlatform = lazySchema(() => z.enum(["telegram", "slack", "discord"]));
export type ChatPlatform = z.infer<typeof ChatPlatform>;

/** `POST /api/channels/link-codes`. */
export const LinkCodeBody = lazySchema(() => z.strictObject({ platform: ChatPlatform }));
export type LinkCodeBody = z.infer<typeof LinkCodeBody>;

export const LinkCodeResponse = lazySchema(() =>
  z.object({
    /** One-time code the person sends the bot in a direct message, valid until `expiresAt`. */
    code: z.string(),
    expiresAt: z.number(),
    /** Telegram's `t.me/<bot>?start=<code>`, when the bot's name is configured. */
    deepLink: z.string().optional(),
  }),
);
export type LinkCodeResponse = z.infer<typeof LinkCodeResponse>;

/** A chat account linked to a person: one more of their devices. */
export const ChannelAccountView = lazySchema(() =>
  z.object({
    linkId: z.string(),
    platform: ChatPlatform,
    /** The account's id on its platform (trusted only on that platform). */
    accountId: z.string(),
    /** The account's display name when it linked. */
    name: z.string(),
    linkedAt: z.number(),
  }),
);
export type ChannelAccountView = z.infer<typeof ChannelAccountView>;
