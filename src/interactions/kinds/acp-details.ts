// What an approval card shows for a request from an Agent Client Protocol agent (`parley acp`):
// the tool call's ACP kind, title, content (diffs, text, terminals) and locations, and which
// "always" choices the agent offers. ACP carries no denial reason and no edited arguments back.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAX_TEXT_FIELD_CHARS } from "../../protocol/limits";

/** Most content blocks and locations one card shows. */
export const MAX_ACP_ITEMS = 20;
const PATH = lazySchema(() => z.string().min(1).max(4096));

export const AcpToolContent = lazySchema(() =>
  z.discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("diff"),
      path: PATH,
      oldText: z.string().nullable(),
      newText: z.string(),
    }),
    z.strictObject({ type: z.literal("text"), text: z.string() }),
    z.strictObject({ type: z.literal("terminal"), terminalId: z.string().min(1).max(128) }),
  ]),
);
export type AcpToolContent = z.infer<typeof AcpToolContent>;

export const AcpToolDetails = lazySchema(() =>
  z.strictObject({
    /** ACP's tool kind: read, edit, delete, move, search, execute, think, fetch, switch_mode, other. */
    kind: z.string().min(1).max(32).optional(),
    title: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
    content: z.array(AcpToolContent).max(MAX_ACP_ITEMS).optional(),
    locations: z
      .array(z.strictObject({ path: PATH, line: z.number().int().nonnegative().optional() }))
      .max(MAX_ACP_ITEMS)
      .optional(),
    /** The agent offers "always allow" (ACP `allow_always`). */
    allowAlways: z.boolean(),
    /** The agent offers "always deny" (ACP `reject_always`). */
    rejectAlways: z.boolean(),
  }),
);
export type AcpToolDetails = z.infer<typeof AcpToolDetails>;

/** Why an answer an ACP agent cannot take is refused, or null when it can take it. */
export function acpRefusal(
  details: AcpToolDetails,
  decision: { decision: "approve" | "deny"; remember?: boolean; updatedInput?: unknown; stop?: boolean },
): string | null {
  if (decision.updatedInput !== undefined)
    return "an ACP agent cannot take edited arguments: approve or deny the call as asked";
  if (decision.stop) return "an ACP agent cannot be stopped from a card: deny, or cancel in the editor";
  if (decision.remember && decision.decision === "approve" && !details.allowAlways)
    return "this agent does not offer to always allow this call";
  if (decision.remember && decision.decision === "deny" && !details.rejectAlways)
    return "this agent does not offer to always deny this call";
  return null;
}
