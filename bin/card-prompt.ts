// What a terminal prompt for one interaction kind is: the card it answers, and the lines it asks
// and the command it sends. Each kind's prompt lives in its own file; card-prompts.ts lists them.

import type { CommandInput } from "../client/client";
import type { ApprovalCount } from "../src/protocol/cards/approval-count";
import type { TerminalLine } from "./terminal-paint";

export interface Card {
  /** The card's own id; events stored before interactions had ids of their own leave it out. */
  interactionId?: string | undefined;
  toolCallId: string;
  kind: string;
  toolName: string;
  request: unknown;
  /** The terminal's role in the session (its hello's), for choices only the owner is offered. */
  role?: string | undefined;
  /** Set on an approval that needs several distinct approvals: how many so far. */
  approvals?: ApprovalCount | undefined;
}

export type Reply =
  /** Show these lines (a diff's with tones the device may colour) and wait for another line with this prompt. */
  | { kind: "ask"; lines: TerminalLine[]; prompt: string }
  /** The card is answered: send this command. */
  | { kind: "send"; command: CommandInput };

export interface CardPrompt {
  /** The lines and prompt that open (or re-open, after an error) the card. */
  start(): Reply;
  /** One typed line. */
  input(line: string): Reply;
}

/** Builds the prompt for a card of its kind, or `null` when this card cannot be answered here. */
export type TerminalPrompt = (card: Card) => CardPrompt | null;
