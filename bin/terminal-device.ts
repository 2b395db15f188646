// A terminal as one more device of a session: streams the transcript, asks open cards one at a
// time, sends typed lines as messages, and shows the receipt when another device answered first.

import type { Interface as ReadLine } from "node:readline";
import type { InteractionResolution, SessionClient, SessionEvent } from "../client/client";
import type { TextLineKind } from "../src/display/call-text";
import { namesSomeone } from "../src/protocol/access/people";
import { approvalsText } from "../src/protocol/cards/approval-words";
import { inert } from "../src/protocol/text/inert-text";
import { isPromptEvent } from "../src/protocol/wire/prompt-event";
import { receiptText } from "../web/src/interaction-view";
import { type Card, type CardPrompt, promptFor, type Reply } from "./card-prompts";
import { lineParts, paint } from "./terminal-paint";

const MESSAGE_PROMPT = "you› ";
const MAX_TOOL_LINE = 120;

export class TerminalDevice {
  private readonly queue: Card[] = [];
  private active: { card: Card; prompt: CardPrompt } | null = null;
  private promptText = MESSAGE_PROMPT;
  /** Streamed text not yet ended by a newline. */
  private partial = "";
  /** What this connection may do, from the hello (older servers send none: the owner). */
  private role = "owner";

  constructor(
    private readonly client: SessionClient,
    private readonly rl: ReadLine,
    private readonly write: (text: string) => void,
    private readonly deviceId: string,
    /** A terminal echoes typed lines; the message then comes back as an event and is shown once. */
    private readonly echoes = false,
    /** Colour a diff's lines (bin/terminal-paint.ts: only on a terminal, never with NO_COLOR). */
    private readonly color = false,
  ) {
    client.on("hello", (hello) => {
      const snapshot = hello.snapshot;
      this.role = hello.role ?? "owner";
      this.print(`Connected as ${hello.deviceId} · ${snapshot.model} · ${snapshot.status.replace("_", " ")}`);
    });
    client.on("events", (events) => {
      for (const event of events) this.onEvent(event);
    });
    client.on("connection", (info) => {
      if (info.state === "reconnecting" || info.state === "offline") this.print(`… ${info.state}`);
    });
    rl.on("line", (line) => this.onLine(line));
  }

  private onEvent(event: SessionEvent): void {
    if (isPromptEvent(event)) {
      this.open(event.data);
      return;
    }
    switch (event.type) {
      case "user_message":
        // A message to an agent that runs elsewhere waits until its bridge delivers it.
        this.print(
          `${this.senderOf(event.data)}› ${event.data.text}${event.data.awaitsAgent ? " (waiting for the agent)" : ""}`,
        );
        break;
      case "message_delivered":
        this.print(`  ✓ delivered by ${event.data.bridge}`);
        break;
      case "session_stopped":
        this.print("■ the session was stopped: its agent takes no more messages");
        break;
      case "text_delta":
        // A delegated agent's text starts with its name (the event's mark says who speaks).
        this.stream(this.partial === "" ? `${by(event.data)}${event.data.text}` : event.data.text);
        break;
      case "tool_call_end":
        this.print(`⚙ ${by(event.data)}${event.data.name} ${clip(JSON.stringify(event.data.input ?? {}))}`);
        break;
      case "tool_result":
        this.print(`  ${event.data.isError ? "✗" : "↳"} ${clip(event.data.content.split("\n")[0] ?? "")}`);
        break;
      case "interaction_resolved":
        this.resolved(event.data);
        break;
      case "approval_counted": {
        // One more person approved a call that needs several; it runs after the last.
        const { approvals } = event.data;
        this.print(`… ${approvalsText(approvals)} · ${approvals.by.join(", ")}`);
        break;
      }
      case "agent_started":
        this.print(`» the ${event.data.agent} agent takes over: ${event.data.task}`);
        break;
      case "agent_completed":
        this.print(`« the ${event.data.agent} agent is done (${event.data.outcome})`);
        break;
      case "error":
        this.print(`✗ ${event.data.message}`);
        break;
      case "done":
        this.flush();
        break;
      default:
        break;
    }
  }

  /** Who sent a message: the person or link the server named, else the device's own name for itself. */
  private senderOf(message: { deviceId: string | null; by?: string | null | undefined }): string {
    if (message.deviceId === this.deviceId) return "you";
    return namesSomeone(message.by) ? message.by : (message.deviceId ?? "someone");
  }

  private open(prompted: Card): void {
    this.flush();
    const card = { ...prompted, role: this.role };
    if (!promptFor(card)) {
      this.print(`A ${card.kind} card is waiting; answer it in the browser.`);
      return;
    }
    this.queue.push(card);
    if (!this.active) this.next();
  }

  private resolved(resolution: InteractionResolution): void {
    const id = resolution.interactionId ?? resolution.toolCallId;
    const index = this.queue.findIndex((card) => cardId(card) === id);
    if (index >= 0) this.queue.splice(index, 1);
    const by =
      resolution.resolvedBy && resolution.resolvedBy !== this.deviceId ? ` (${resolution.resolvedBy})` : "";
    // The same words the page's cards use (the kind's, sent with the resolution), so every device
    // tells the same story.
    const words = receiptText(resolution, this.deviceId);
    this.print(`✓ ${words}${by}`);
    if (this.active && cardId(this.active.card) === id) {
      this.active = null;
      this.next();
    }
  }

  private next(): void {
    const card = this.queue[0];
    const prompt = card && promptFor(card);
    if (!card || !prompt) {
      this.active = null;
      this.setPrompt(MESSAGE_PROMPT);
      return;
    }
    this.active = { card, prompt };
    this.show(prompt.start());
  }

  private onLine(line: string): void {
    if (this.active) {
      this.show(this.active.prompt.input(line), this.active.card);
      return;
    }
    if (line.trim()) {
      if (this.echoes) this.write("\x1b[1A\r\x1b[K");
      this.client
        .send({ type: "send_message", text: line })
        .catch((error: Error) => this.print(`✗ ${error.message}`));
    }
    this.rl.prompt();
  }

  private show(reply: Reply, card?: Card): void {
    if (reply.kind === "ask") {
      for (const line of reply.lines) {
        const { text, tone } = lineParts(line);
        this.print(text, tone);
      }
      this.setPrompt(reply.prompt);
      return;
    }
    const sent = card ?? this.active?.card;
    // The card stays first in the queue until its resolution event arrives (from here or elsewhere).
    this.active = null;
    this.setPrompt(MESSAGE_PROMPT);
    this.client
      .send(reply.command)
      .then((outcome) => {
        if (outcome.alreadyResolved) this.print("Another device answered first.");
      })
      .catch((error: Error) => {
        this.print(`✗ ${error.message}`);
        if (sent && this.queue[0] === sent && !this.active) this.next();
      });
  }

  private stream(text: string): void {
    this.partial += text;
    const end = this.partial.lastIndexOf("\n");
    if (end < 0) return;
    const complete = this.partial.slice(0, end);
    this.partial = this.partial.slice(end + 1);
    this.line(complete);
  }

  /** Ends streamed text that has no newline yet, so what follows starts on its own line. */
  private flush(): void {
    if (!this.partial) return;
    const rest = this.partial;
    this.partial = "";
    this.line(rest);
  }

  /** The prompt goes through the same filter as printed text: a card's words are in it (a form field's key). */
  private setPrompt(text: string): void {
    this.promptText = inert(text);
    this.rl.setPrompt(this.promptText);
    this.rl.prompt(true);
  }

  /** Prints a line of its own (after any streamed text), above the input line. */
  private print(text: string, tone: TextLineKind | null = null): void {
    this.flush();
    this.line(text, tone);
  }

  /** Writes above the input line, then redraws the prompt with what was being typed. */
  private line(text: string, tone: TextLineKind | null = null): void {
    // Made inert first: the tone's codes are the only escape codes a line carries.
    this.write(`\r\x1b[K${paint(inert(text), tone, this.color)}\n`);
    this.rl.setPrompt(this.promptText);
    this.rl.prompt(true);
  }
}

function cardId(card: Card): string {
  return card.interactionId ?? card.toolCallId;
}

/** "researcher› " for a delegated agent's output; nothing for the main agent or unmarked events. */
function by(mark: { agent?: string | undefined; depth?: number | undefined }): string {
  return mark.agent !== undefined && mark.depth !== undefined && mark.depth > 0 ? `${mark.agent}› ` : "";
}

function clip(text: string): string {
  return text.length > MAX_TOOL_LINE ? `${text.slice(0, MAX_TOOL_LINE - 1)}…` : text;
}
