// Which card renders which interaction kind, and how the tool card around it behaves. A new kind
// registers one line here; kinds without one are shown read-only, so an older page never breaks.
import type { InteractionState, ToolItem } from "../../session-state";
import { type InteractionCard, UnsupportedCard } from "../cards/interaction-card";
import { ApprovalCard } from "../kinds/approval-card";
import { FormCard } from "../kinds/form-card";
import { PlanCard } from "../kinds/plan-card";
import { QuestionCard } from "../kinds/question-card";
import { UrlCard } from "../kinds/url-card";

export interface InteractionRenderer {
  create(interaction: InteractionState, item: ToolItem): InteractionCard;
  /** The tool card's phase while this prompt waits ("waiting for you", "needs approval"). */
  waiting: string;
  /**
   * True when the prompt is all the tool call is (AskUserQuestion): the card shows the request, and
   * the tool card hides the arguments and the result the model was given.
   */
  standsForTool(interaction: InteractionState): boolean;
}

const RENDERERS: Readonly<Record<string, InteractionRenderer>> = {
  question: {
    create: (i) => new QuestionCard(i),
    waiting: "waiting for you",
    standsForTool: () => true,
  },
  approval: {
    create: (i, item) => new ApprovalCard(i, item),
    waiting: "needs approval",
    standsForTool: () => false,
  },
  // A form the model opened is the whole call; one a tool opened sits inside that tool's card.
  form: {
    create: (i) => new FormCard(i),
    waiting: "waiting for you",
    standsForTool: (i) => i.id === i.toolCallId,
  },
  plan: { create: (i) => new PlanCard(i), waiting: "needs approval", standsForTool: () => true },
  // Only tools and MCP servers send a person to a page, so the card sits inside that tool's card.
  url: { create: (i) => new UrlCard(i), waiting: "waiting for you", standsForTool: () => false },
};

const UNSUPPORTED: InteractionRenderer = {
  create: (interaction) => new UnsupportedCard(interaction),
  waiting: "waiting for you",
  standsForTool: () => false,
};

export function rendererFor(kind: string): InteractionRenderer {
  return RENDERERS[kind] ?? UNSUPPORTED;
}
