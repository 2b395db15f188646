// Each kind's chat view by kind name (a kind without one is answered in Parley, through its link).
import { approvalChatView } from "./approval-view";
import type { ChatView } from "./chat-view";
import { formChatView } from "./form-view";
import { planChatView } from "./plan-view";
import { questionChatView } from "./question-view";
import { urlChatView } from "./url-view";

export const CHAT_VIEWS: Readonly<Record<string, ChatView>> = {
  approval: approvalChatView,
  question: questionChatView,
  form: formChatView,
  plan: planChatView,
  url: urlChatView,
};
