// The names the first two kinds, question and approval, had before the generic ones, kept for the
// clients built on them: their prompt events, answer commands and routes, and how each maps onto
// `interaction_prompt` and `respond`. No other file names them. Holds no schema, so the page may import it.
/** The prompt event each seed kind is announced with; every other kind uses `interaction_prompt`. */
export const SEED_PROMPT_EVENTS = { question: "question_prompt", approval: "approval_required" } as const;

/** Every event type that opens a card. */
export const PROMPT_EVENT_TYPES = [
  SEED_PROMPT_EVENTS.question,
  SEED_PROMPT_EVENTS.approval,
  "interaction_prompt",
] as const;
export type PromptEventType = (typeof PROMPT_EVENT_TYPES)[number];

const PROMPT_EVENTS: ReadonlySet<string> = new Set(PROMPT_EVENT_TYPES);

/** True for an event type that opens a card. */
export function isPromptEventType(type: string): type is PromptEventType {
  return PROMPT_EVENTS.has(type);
}

/** The event that announces a prompt of `kind`. */
export function promptEventOf(kind: string): PromptEventType {
  return Object.hasOwn(SEED_PROMPT_EVENTS, kind)
    ? SEED_PROMPT_EVENTS[kind as keyof typeof SEED_PROMPT_EVENTS]
    : "interaction_prompt";
}

export const SUBMIT_ANSWERS = "submit_answers";
export const APPROVE = "approve";
export const DENY = "deny";

/** The answer commands older than `respond`, each with the kind it answers and its HTTP route. */
export const SEED_COMMANDS = {
  [SUBMIT_ANSWERS]: { kind: "question", route: "/submit-answers" },
  [APPROVE]: { kind: "approval", route: "/approve" },
  [DENY]: { kind: "approval", route: "/deny" },
} as const;
export type SeedCommandType = keyof typeof SEED_COMMANDS;

/**
 * The fields of a seed command that its answer reads (commands.ts holds their schemas, which
 * import the names from here).
 */
export type SeedCommand =
  | { type: typeof SUBMIT_ANSWERS; toolCallId: string; answers: unknown; annotations?: unknown }
  | { type: typeof APPROVE; toolCallId: string; remember?: boolean | undefined; updatedInput?: unknown }
  | { type: typeof DENY; toolCallId: string; reason?: string | undefined; stop?: boolean | undefined };

/** The values of the batch decision ("Approve all" / "Deny all"), the approval's two answers. */
export const BATCH_DECISIONS = [APPROVE, DENY] as const;

export function isSeedCommand<C extends { type: string }>(command: C): command is C & SeedCommand {
  return Object.hasOwn(SEED_COMMANDS, command.type);
}

/** A seed command as the `respond` it stands for: the card it answers, its kind, and the response. */
export function seedAnswer(command: SeedCommand): { toolCallId: string; kind: string; response: unknown } {
  const { kind } = SEED_COMMANDS[command.type];
  switch (command.type) {
    case "submit_answers":
      return {
        toolCallId: command.toolCallId,
        kind,
        response: {
          answers: command.answers,
          ...(command.annotations ? { annotations: command.annotations } : {}),
        },
      };
    case "approve":
      return {
        toolCallId: command.toolCallId,
        kind,
        response: {
          decision: "approve",
          remember: command.remember ?? false,
          ...(command.updatedInput ? { updatedInput: command.updatedInput } : {}),
        },
      };
    case "deny":
      return {
        toolCallId: command.toolCallId,
        kind,
        response: {
          decision: "deny",
          ...(command.reason !== undefined ? { reason: command.reason } : {}),
          ...(command.stop !== undefined ? { stop: command.stop } : {}),
        },
      };
  }
}
