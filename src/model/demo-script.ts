// The offline demo model: a short conversation that shows Parley off without an API key —
// a read-only tool, an AskUserQuestion, then an approval for an edit, a form or a model outage,
// and a reply that uses the answers.
// It decides from the transcript alone, so it works for any number of turns and after restarts.
import { mcpTour, mcpTourResult } from "./demo-mcp";
import { outageTour } from "./demo-outage";
import {
  delegateResearch,
  demoFrameOf,
  demoSubagentReply,
  researchReturned,
  SUBAGENT_TOUR,
} from "./demo-subagents";
import type { ContentBlockParam, MessageParam, ModelRequest, ToolResultBlockParam } from "./model-client";
import { ScriptedModelClient } from "./scripted-client";
import type { ScriptedReply } from "./scripted-reply";

/** The question the demo asks; exported so tests and docs can refer to it. */
export const DEMO_QUESTIONS = [
  {
    question: "Which part of Parley should I show you next?",
    header: "Next step",
    multiSelect: false,
    options: [
      { label: "Approvals", description: "Ask you to approve a tool before it runs." },
      { label: "Notes", description: "Keep a note in this session's own storage." },
      { label: "Forms", description: "Fill in a form with typed, checked fields." },
      { label: "Outages", description: "Watch the model be overloaded and the turn wait it out." },
    ],
  },
  {
    question: "Which devices are you using?",
    header: "Devices",
    multiSelect: true,
    options: [
      { label: "Laptop", description: "A browser on a laptop or desktop." },
      { label: "Phone", description: "Open the share link on your phone." },
      { label: "Tablet", description: "Any tablet browser works too." },
    ],
  },
];

/** The form the demo opens when asked to show forms: one field of each kind a form may have. */
export const DEMO_FORM = {
  message: "Book a table at the demo café",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 2, maxLength: 60 },
      email: { type: "string", title: "Email", format: "email", description: "Where the confirmation goes." },
      day: { type: "string", title: "Day", format: "date" },
      guests: { type: "integer", title: "Guests", minimum: 1, maximum: 8, default: 2 },
      seating: {
        type: "string",
        title: "Seating",
        oneOf: [
          { const: "inside", title: "Inside" },
          { const: "terrace", title: "Terrace" },
        ],
        default: "inside",
      },
      extras: {
        type: "array",
        title: "Extras",
        items: {
          anyOf: [
            { const: "cake", title: "Birthday cake" },
            { const: "flowers", title: "Flowers" },
          ],
        },
      },
      newsletter: { type: "boolean", title: "Send me the café's newsletter", default: false },
    },
    required: ["name", "email", "day", "guests"],
  },
} as const;

/** The next reply of the demo model for this transcript. */
export function demoReply(request: ModelRequest, callIndex: number): ScriptedReply {
  const last = request.messages.at(-1);
  if (last?.role !== "user") return politeEnd();
  const frame = demoFrameOf(request);
  if (frame) return demoSubagentReply(frame, request);
  const blocks = asBlocks(last.content);
  const results = blocks.filter((block): block is ToolResultBlockParam => block.type === "tool_result");
  if (results.length === 0) {
    const said = userText(blocks);
    if (inPlanMode(request)) return proposePlan(said, null);
    return SUBAGENT_TOUR.test(said) ? delegateResearch(said) : (mcpTour(request, said) ?? greet(said));
  }

  const calls = toolNames(request.messages.at(-2));
  const result = results[0];
  if (!result) return politeEnd();
  const tool = calls.get(result.tool_use_id) ?? "";
  if (tool.startsWith("mcp__")) return mcpTourResult(tool, result, resultText(result));
  switch (tool) {
    case "current_time":
      return askQuestions(result);
    case "AskUserQuestion":
      return !result.is_error && resultText(result).includes('="Outages"')
        ? outageTour(result, callIndex)
        : writeNote(result);
    case "ExitPlanMode":
      return afterPlan(result);
    case "notes_write":
      return finish(result);
    case "RequestUserInput":
      return afterForm(result);
    case "Agent":
      return researchReturned(result);
    default:
      return politeEnd();
  }
}

/**
 * The demo model as a client. `nextCallIndex` should be the session's persisted call counter;
 * `paceMs` slows streaming down so people can watch the text arrive.
 */
export function createDemoModel(
  nextCallIndex?: () => number,
  options: { paceMs?: number } = {},
): ScriptedModelClient {
  const paceMs = options.paceMs ?? 0;
  return new ScriptedModelClient(
    (request, callIndex) => ({ ...demoReply(request, callIndex), ...(paceMs > 0 ? { paceMs } : {}) }),
    { name: "demo", demo: true, ...(nextCallIndex ? { nextCallIndex } : {}) },
  );
}

// (a) A new message from the person: introduce the demo and use a read-only tool.
function greet(said: string): ScriptedReply {
  const echo = said ? ` You said: “${truncate(said, 80)}”.` : "";
  return {
    content: [
      {
        type: "text",
        text:
          `Hi! This is Parley's offline demo model — no API key needed, and nothing leaves this server.${echo} ` +
          "Let me show you how a session works (say “research something” another time to meet a subagent). " +
          "First, a read-only tool, which runs without asking you:",
      },
      { type: "tool_use", name: "current_time", input: {} },
    ],
  };
}

// (b) After current_time: report the time, then pause the loop to ask the person.
function askQuestions(result: ToolResultBlockParam): ScriptedReply {
  const time = resultText(result);
  const said = result.is_error
    ? `The current_time tool failed (“${truncate(time, 200)}”), but that's fine for a demo.`
    : `The current_time tool says: ${truncate(time, 200)}.`;
  return {
    content: [
      {
        type: "text",
        text:
          `${said} Now I'll pause and ask you two questions. You can answer from any device that ` +
          "has this session open — try the share link on your phone — and the first answer wins.",
      },
      { type: "tool_use", name: "AskUserQuestion", input: { questions: DEMO_QUESTIONS } },
    ],
  };
}

// (c) After the answers: quote them, then ask to write a note (an edit that needs approval).
function writeNote(result: ToolResultBlockParam): ScriptedReply {
  const answers = resultText(result);
  if (result.is_error) {
    return reply(
      `I didn't get an answer (“${truncate(answers, 300)}”). That's fine — prompts expire so a ` +
        "session never waits forever. Send me any message to start the demo again.",
    );
  }
  if (answers.includes('="Forms"')) return askForm(answers);
  return {
    content: [
      {
        type: "text",
        text:
          `Thanks! Here is what the question tool returned: “${truncate(answers, 600)}” ` +
          "Next I'd like to save a note about your answers. Writing is an edit, so in the default " +
          "permission mode Parley asks you to approve it first.",
      },
      { type: "tool_use", name: "notes_write", input: { key: "demo", text: summarise(answers) } },
    ],
  };
}

// (d) After the approval outcome: say what happened, and end the turn.
function finish(result: ToolResultBlockParam): ScriptedReply {
  const text = resultText(result);
  if (!result.is_error) {
    return reply(
      `Done — the note “demo” is saved in this session (${truncate(text, 200)}). That was the whole ` +
        "tour: a tool that ran on its own, a question answered from any device, and an edit you " +
        "approved. Send another message to go round again.",
    );
  }
  if (/timed out/i.test(text)) {
    return reply(
      "Nobody approved the note in time, so the request timed out and nothing was written. " +
        "Unanswered prompts are denied after a while so the session can move on.",
    );
  }
  if (/denied/i.test(text)) {
    const reason = /Reason: (.+)$/s.exec(text)?.[1]?.trim();
    const because = reason ? ` Your reason: “${truncate(reason, 300)}”.` : "";
    return reply(`You denied writing the note, so nothing was written.${because} No hard feelings!`);
  }
  return reply(`The note was not written: “${truncate(text, 300)}”.`);
}

// (c') Forms were picked: open a form with every kind of field.
function askForm(answers: string): ScriptedReply {
  return {
    content: [
      {
        type: "text",
        text:
          `Thanks! Here is what the question tool returned: “${truncate(answers, 600)}” ` +
          "Forms it is: I'll ask you to fill one in. Each field is typed and checked — on your device " +
          "and again on the server — and you can decline instead.",
      },
      { type: "tool_use", name: "RequestUserInput", input: DEMO_FORM },
    ],
  };
}

// (d') After the form: say what came back, and end the turn.
function afterForm(result: ToolResultBlockParam): ScriptedReply {
  const text = resultText(result);
  if (/declined/i.test(text)) return reply("You declined the form, so I have nothing to book. That's fine!");
  if (result.is_error) return reply(`The form did not come back: “${truncate(text, 300)}”.`);
  return reply(
    `Here is what the form returned, exactly as the model sees it: “${truncate(text, 600)}” ` +
      "That was the form tour. Send another message to go round again.",
  );
}

// Plan mode (the system prompt says so): present a plan, then follow the person's decision.
function inPlanMode(request: ModelRequest): boolean {
  return request.system?.some((block) => /^Permission mode: plan\b/m.test(block.text)) ?? false;
}

/** The demo's plan, as markdown; exported so tests can find it on the card. */
export const DEMO_PLAN_TITLE = "Plan: save a demo note";

function proposePlan(said: string, feedback: string | null): ScriptedReply {
  const revised = feedback ? `\n\n> Revised after your feedback: ${truncate(feedback, 300)}` : "";
  const plan = [
    `## ${DEMO_PLAN_TITLE}`,
    "",
    "1. Read the current time with `current_time` (read-only, allowed while planning).",
    "2. Write a note named **demo** with `notes_write` — an *edit*, so it waits for this plan.",
    "3. Tell you what was saved.",
    "",
    "| Step | Tool | Risk |",
    "|---|---|---|",
    "| 1 | `current_time` | read |",
    "| 2 | `notes_write` | edit |",
    "",
    "```json",
    JSON.stringify({ key: "demo", text: said ? truncate(said, 80) : "Planned in plan mode" }),
    "```",
  ].join("\n");
  return {
    content: [
      {
        type: "text",
        text: feedback
          ? "Thanks for the feedback — here is the revised plan."
          : "The session is in **plan mode**, so nothing changes until you approve a plan. Here is mine:",
      },
      { type: "tool_use", name: "ExitPlanMode", input: { plan: plan + revised } },
    ],
  };
}

function afterPlan(result: ToolResultBlockParam): ScriptedReply {
  const text = resultText(result);
  if (!result.is_error) {
    return {
      content: [
        { type: "text", text: `Plan approved. ${truncate(text, 300)} Writing the note now.` },
        {
          type: "tool_use",
          name: "notes_write",
          input: { key: "demo", text: "Written after an approved plan" },
        },
      ],
    };
  }
  const feedback = /Their feedback: (.+?) The session stays/s.exec(text)?.[1]?.trim();
  if (/keep planning/i.test(text)) return proposePlan("", feedback ?? "keep planning");
  return reply(`No decision on the plan (“${truncate(text, 300)}”), so nothing was changed.`);
}

function politeEnd(): ScriptedReply {
  return reply(
    "I'm Parley's offline demo model and I've lost my place in the script — sorry! " +
      "Send me a new message and I'll start the tour again.",
  );
}

function reply(text: string): ScriptedReply {
  return { content: [{ type: "text", text }], stopReason: "end_turn" };
}

/** Turns `"question"="answer"` pairs into a one-line note; falls back to the whole result text. */
function summarise(answers: string): string {
  const headers = new Map(DEMO_QUESTIONS.map((q) => [q.question, q.header]));
  const pairs = [...answers.matchAll(/"([^"]*)"="([^"]*)"/g)].map(
    ([, question = "", answer = ""]) => `${headers.get(question) ?? question}: ${answer}`,
  );
  const summary = pairs.length > 0 ? pairs.join("; ") : truncate(answers, 500);
  return `Demo answers — ${summary}`;
}

function asBlocks(content: MessageParam["content"]): ContentBlockParam[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function userText(blocks: ContentBlockParam[]): string {
  return blocks
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join(" ")
    .trim();
}

/** Tool names by tool_use id in the assistant message that asked for the results. */
function toolNames(message: MessageParam | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (message?.role !== "assistant") return names;
  for (const block of asBlocks(message.content)) {
    if (block.type === "tool_use") names.set(block.id, block.name);
  }
  return names;
}

function resultText(result: ToolResultBlockParam): string {
  const { content } = result;
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
