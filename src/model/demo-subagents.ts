// The demo model's subagent tour, offline: the main agent hands a topic to the `researcher` agent,
// which asks the person a clarifying question, talks with them directly, has the `note-keeper`
// agent save a note (after the person approves) and completes; the main agent then resumes.
import type { ContentBlockParam, MessageParam, ModelRequest, ToolResultBlockParam } from "./model-client";
import type { ScriptedReply } from "./scripted-reply";

/** The clarifying question the demo researcher asks. */
export const DEMO_RESEARCH_QUESTION = {
  question: "What should the researcher focus on?",
  header: "Focus",
  multiSelect: false,
  options: [
    { label: "Overview", description: "A short, friendly summary." },
    { label: "Details", description: "The finer points, with caveats." },
  ],
};

/** Words in the person's message that start the subagent tour instead of the classic one. */
export const SUBAGENT_TOUR = /\b(sub-?agents?|agents?|research\w*)\b/i;

type Frame = "researcher" | "note-keeper";

const FRAMES: readonly Frame[] = ["researcher", "note-keeper"];

/** Which of the demo's delegated agents this request is for, by the agent's name (agents/*.md). */
export function demoFrameOf(request: ModelRequest): Frame | null {
  return FRAMES.find((frame) => frame === request.agent) ?? null;
}

/** The main agent hands the topic to the researcher. */
export function delegateResearch(said: string): ScriptedReply {
  const topic = said.length > 0 ? said : "Parley";
  return {
    content: [
      {
        type: "text",
        text:
          "Let me hand this to the researcher agent. It will take over the conversation — you'll talk " +
          "with it directly until it reports back to me.",
      },
      {
        type: "tool_use",
        name: "Agent",
        input: {
          description: "Research the topic",
          prompt: `Research this for the person: ${topic}`,
          subagent_type: "researcher",
        },
      },
    ],
  };
}

/** The main agent, after the researcher's result came back. */
export function researchReturned(result: ToolResultBlockParam): ScriptedReply {
  const text = resultText(result);
  const outcome = result.is_error
    ? `The researcher did not finish (“${text}”) — I'm back in charge, and nothing is lost.`
    : `The researcher reported back: “${text}”`;
  return reply(
    `${outcome} That was a subagent conversation: another agent took over, asked you things ` +
      "directly, delegated once more, and handed its result back to me. Send another message to go again.",
  );
}

/** One turn of a delegated demo agent. */
export function demoSubagentReply(frame: Frame, request: ModelRequest): ScriptedReply {
  return frame === "researcher" ? researcher(request.messages) : noteKeeper(request.messages);
}

function researcher(messages: MessageParam[]): ScriptedReply {
  const last = blocksOf(messages.at(-1));
  const result = last.find((block): block is ToolResultBlockParam => block.type === "tool_result");
  if (messages.length === 1) {
    return {
      content: [
        { type: "text", text: "Hi, I'm the researcher agent. One question before I start:" },
        { type: "tool_use", name: "AskUserQuestion", input: { questions: [DEMO_RESEARCH_QUESTION] } },
      ],
    };
  }
  if (!result) {
    return {
      content: [
        { type: "text", text: "Thanks! I'll ask the note-keeper agent to save what we have." },
        {
          type: "tool_use",
          name: "Agent",
          input: {
            description: "Save a research note",
            prompt: `Save a note: ${summary(messages)}`,
            subagent_type: "note-keeper",
          },
        },
      ],
    };
  }
  const calledFor = toolNameOf(messages.at(-2), result.tool_use_id);
  if (calledFor === "AskUserQuestion") {
    const answer = resultText(result);
    return reply(
      `Noted (${truncate(answer, 200)}). You're talking to me, the researcher, now — not the main ` +
        "agent. Tell me one thing you'd like the note to say, and I'll get it saved.",
    );
  }
  const saved = resultText(result);
  return {
    content: [
      {
        type: "tool_use",
        name: "complete",
        input: { result: `${summary(messages)} Note-keeper: ${truncate(saved, 200)}` },
      },
    ],
  };
}

function noteKeeper(messages: MessageParam[]): ScriptedReply {
  const last = blocksOf(messages.at(-1));
  const result = last.find((block): block is ToolResultBlockParam => block.type === "tool_result");
  if (!result) {
    const task = textOf(last).replace(/^Save a note:\s*/, "");
    return {
      content: [
        { type: "text", text: "I'm the note-keeper. Writing is an edit, so you'll be asked to approve it." },
        { type: "tool_use", name: "notes_write", input: { key: "research", text: truncate(task, 1_000) } },
      ],
    };
  }
  const text = resultText(result);
  const outcome = result.is_error
    ? `Nothing was saved: ${truncate(text, 200)}`
    : `Saved the note “research”.`;
  return { content: [{ type: "tool_use", name: "complete", input: { result: outcome } }] };
}

/** What the researcher learned: the chosen focus and what the person said to it. */
function summary(messages: MessageParam[]): string {
  const answers = messages
    .flatMap(blocksOf)
    .flatMap((block) => (block.type === "tool_result" ? [resultText(block)] : []))
    .join("\n");
  const focus = /"What should the researcher focus on\?"="([^"]*)"/.exec(answers)?.[1];
  const said = messages
    .slice(1)
    .filter((message) => message.role === "user")
    .map((message) => textOf(blocksOf(message)))
    .filter((text) => text.length > 0)
    .at(-1);
  return `Focus: ${focus ?? "not chosen"}. The person said: “${truncate(said ?? "nothing", 300)}”.`;
}

function blocksOf(message: MessageParam | undefined): ContentBlockParam[] {
  if (!message) return [];
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function textOf(blocks: ContentBlockParam[]): string {
  return blocks
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join(" ")
    .trim();
}

function toolNameOf(message: MessageParam | undefined, toolUseId: string): string | null {
  for (const block of blocksOf(message))
    if (block.type === "tool_use" && block.id === toolUseId) return block.name;
  return null;
}

function resultText(result: ToolResultBlockParam): string {
  const { content } = result;
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return textOf(content as ContentBlockParam[]);
}

function reply(text: string): ScriptedReply {
  return { content: [{ type: "text", text }], stopReason: "end_turn" };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
