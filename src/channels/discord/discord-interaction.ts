// What Discord posts to the interactions endpoint, checked at the edge: the fields Parley reads of
// a ping, the `/parley` command, a button press and a modal submission, who sent it from where, and
// the message a pressed button sits on.
import * as z from "zod";

/** Discord's interaction types. */
export const INTERACTION = { ping: 1, command: 2, component: 3, modalSubmit: 5 } as const;
/** Discord's channel type of a direct message, and the interaction context of a bot's DM. */
const DM_CHANNEL = 1;
const BOT_DM_CONTEXT = 1;

const User = z.object({
  id: z.string().regex(/^\d{1,20}$/),
  username: z.string(),
  global_name: z.string().nullish(),
});

type Option = { name: string; type: number; value?: unknown; options?: Option[] };
const CommandOption: z.ZodType<Option> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.number(),
    value: z.unknown().optional(),
    options: z.array(CommandOption).optional(),
  }),
);

export const Interaction = z.object({
  type: z.number().int(),
  id: z.string(),
  token: z.string(),
  guild_id: z.string().optional(),
  channel: z.object({ id: z.string(), type: z.number() }).optional(),
  channel_id: z.string().optional(),
  context: z.number().optional(),
  user: User.optional(),
  member: z.object({ user: User }).optional(),
  /** The message a pressed button (or the button that opened a modal) sits on. */
  message: z.object({ id: z.string().regex(/^\d{1,20}$/) }).optional(),
  data: z
    .object({
      name: z.string().optional(),
      options: z.array(CommandOption).optional(),
      custom_id: z.string().optional(),
      components: z.array(z.unknown()).optional(),
    })
    .optional(),
});
export type Interaction = z.infer<typeof Interaction>;

/** Who sent it: the user in a direct message, the member's user in a server. */
export function senderOf(interaction: Interaction): { id: string; name: string } | null {
  const user = interaction.user ?? interaction.member?.user;
  return user ? { id: user.id, name: user.global_name || user.username } : null;
}

/** The bot's own direct message channel with the sender, or null anywhere else (servers, group DMs, other people's DMs). */
export function directChannelOf(interaction: Interaction): string | null {
  if (interaction.guild_id || interaction.channel?.type !== DM_CHANNEL) return null;
  if (interaction.context !== undefined && interaction.context !== BOT_DM_CONTEXT) return null;
  return interaction.channel.id;
}

/** `/parley link <code>`: the code, or "" when the command came without one. */
export function linkCodeOf(interaction: Interaction): string | null {
  if (interaction.data?.name !== "parley") return null;
  const link = interaction.data.options?.find((option) => option.name === "link");
  if (!link) return null;
  const code = link.options?.find((option) => option.name === "code")?.value;
  return typeof code === "string" ? code : "";
}

/** The text a modal's input named `customId` was submitted with, in either component layout. */
export function modalTextOf(interaction: Interaction, customId: string): string | null {
  const stack: unknown[] = [...(interaction.data?.components ?? [])];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== "object" || item === null) continue;
    const component = item as {
      custom_id?: unknown;
      value?: unknown;
      components?: unknown;
      component?: unknown;
    };
    if (component.custom_id === customId && typeof component.value === "string") return component.value;
    if (Array.isArray(component.components)) stack.push(...component.components);
    if (component.component) stack.push(component.component);
  }
  return null;
}
