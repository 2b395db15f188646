// Which card renders which interaction kind. A new kind registers its card here; kinds without
// one are shown read-only, so an older page never breaks on a newer server.
import type { ToolItem } from "../session-state";
import { ApprovalCard } from "./approval-card";
import { type InteractionCard, UnsupportedCard } from "./interaction-card";
import { QuestionCard } from "./question-card";

type CardFactory = (item: ToolItem) => InteractionCard;

const RENDERERS: Readonly<Record<string, CardFactory>> = {
  question: (item) => new QuestionCard(item),
  approval: (item) => new ApprovalCard(item),
};

export function renderInteraction(kind: string, item: ToolItem): InteractionCard {
  return (RENDERERS[kind] ?? ((i: ToolItem) => new UnsupportedCard(i)))(item);
}
