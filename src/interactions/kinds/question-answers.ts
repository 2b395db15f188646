// Reading a person's answers to AskUserQuestion: both key forms, multi-select arrays or joined
// strings, and the "Other" free text; the result is the SDK's `answers` record plus a structured copy.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAX_NOTE_CHARS, MAX_TEXT_FIELD_CHARS } from "../../protocol/limits";
import { describeZodError } from "../../protocol/wire/errors";
import type { ParsedResponse } from "../define-interaction";
import type { Question, QuestionRequest } from "./question-request";

/** Joins multi-select answers, as the Claude Agent SDK does in its `answers` record. */
export const ANSWER_JOINER = ", ";

function quoted(texts: readonly string[]): string {
  return texts.map((text) => `"${text}"`).join(", ");
}

/** What a device sends: answers keyed by question text (SDK form) or index `"0"`, `"1"` (seed form). */
export const RawQuestionAnswers = lazySchema(() =>
  z.strictObject({
    answers: z.record(z.string(), z.union([z.string(), z.array(z.string()).max(16)])),
    /** The SDK's per-question annotations; a person may add a note to any question. */
    annotations: z.record(z.string(), z.strictObject({ notes: z.string() })).optional(),
  }),
);

/** The SDK's per-question annotation, stored with the answer. */
export const QuestionAnnotation = lazySchema(() =>
  z.object({
    notes: z.string().optional(),
    /** The preview of the chosen option, when the question used previews. */
    preview: z.string().optional(),
    /** How the question went unanswered (the SDK's field); absent when it was answered. */
    unanswered: z.enum(["replied_in_chat", "dismissed"]).optional(),
  }),
);
export type QuestionAnnotation = z.infer<typeof QuestionAnnotation>;

/** One question's answer, structured for rendering: chosen labels in option order, then "Other". */
export const QuestionSelection = lazySchema(() =>
  z.object({ labels: z.array(z.string()), other: z.string().nullable() }),
);
export type QuestionSelection = z.infer<typeof QuestionSelection>;

/**
 * The stored answer. `answers` is the SDK form (multi-select joined with ", ", "Other" last);
 * `selections` keeps the same answers structured. Both are keyed by question text.
 */
export const QuestionResponse = lazySchema(() =>
  z.object({
    answers: z.record(z.string(), z.string()),
    selections: z.record(z.string(), QuestionSelection),
    annotations: z.record(z.string(), QuestionAnnotation).optional(),
    /** The chat message that answered the card instead (the SDK's `replied_in_chat`). */
    chatReply: z.string().optional(),
  }),
);
export type QuestionResponse = z.infer<typeof QuestionResponse>;

/**
 * Reads a multi-select string such as `"Red, Blue"` as labels. It is cut at ", " into pieces that are
 * each an option label (longer labels first, so labels that themselves contain ", " still match);
 * when no such cut exists the whole string is the "Other" text. Returns `null` for "no cut".
 */
export function splitJoinedLabels(text: string, labels: readonly string[]): string[] | null {
  const labelSet = new Set(labels);
  const longest = Math.max(0, ...labels.map((label) => label.length));
  const pieces = text.split(ANSWER_JOINER);
  const deadEnds = new Set<number>();
  const cutFrom = (start: number): string[] | null => {
    if (start === pieces.length) return [];
    if (deadEnds.has(start)) return null;
    const candidates: { label: string; end: number }[] = [];
    let candidate = "";
    for (let end = start + 1; end <= pieces.length; end++) {
      candidate = end === start + 1 ? pieces[start]! : `${candidate}${ANSWER_JOINER}${pieces[end - 1]}`;
      if (candidate.length > longest) break;
      if (labelSet.has(candidate)) candidates.push({ label: candidate, end });
    }
    for (const { label, end } of candidates.reverse()) {
      const rest = cutFrom(end);
      if (rest !== null) return [label, ...rest];
    }
    deadEnds.add(start);
    return null;
  };
  return cutFrom(0);
}

/** Reads one question's raw answer, or says precisely what is wrong with it. */
function readSelection(question: Question, value: string | string[]): QuestionSelection | string {
  const name = `"${question.question}"`;
  let parts: string[];
  if (Array.isArray(value)) {
    if (value.length === 0) return `the answer to ${name} is empty`;
    parts = value.map((part) => part.trim());
    if (parts.includes("")) return `the answer to ${name} contains an empty value`;
  } else {
    const text = value.trim();
    if (text === "") return `the answer to ${name} is empty`;
    const labels = question.options.map((option) => option.label);
    parts = question.multiSelect ? (splitJoinedLabels(text, labels) ?? [text]) : [text];
  }
  const chosen = new Set<string>();
  const others: string[] = [];
  for (const part of parts) {
    if (question.options.some((option) => option.label === part)) chosen.add(part);
    else if (!others.includes(part)) others.push(part);
  }
  if (others.length > 1) {
    return `the answer to ${name} has ${others.length} values that are not options (${quoted(others)}); only one free-text "Other" answer is allowed`;
  }
  const other = others[0] ?? null;
  if (other !== null && other.length > MAX_TEXT_FIELD_CHARS) {
    return `the "Other" answer to ${name} is longer than ${MAX_TEXT_FIELD_CHARS} characters`;
  }
  const labels = question.options.map((option) => option.label).filter((label) => chosen.has(label));
  const count = labels.length + (other === null ? 0 : 1);
  if (!question.multiSelect && count > 1) return `${name} takes a single answer, got ${count}`;
  return { labels, other };
}

/** The question a key names: its exact text first, else a canonical in-range index. */
function questionIndexOf(questions: readonly Question[], key: string): number | null {
  const byText = questions.findIndex((question) => question.question === key);
  if (byText !== -1) return byText;
  if (!/^(0|[1-9]\d*)$/.test(key)) return null;
  const index = Number(key);
  return index < questions.length ? index : null;
}

/** Validates a device's answers against the questions asked. */
export function parseQuestionAnswers(
  request: QuestionRequest,
  raw: unknown,
): ParsedResponse<QuestionResponse> {
  const parsed = RawQuestionAnswers.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      message: `Answers must look like { answers: { "<question text or index>": "<label or text>" or ["<label>", …] } } (${describeZodError(parsed.error)})`,
    };
  }
  const { questions } = request;
  const problems: string[] = [];
  const unknownKeys: string[] = [];
  const given = new Map<number, { key: string; value: string | string[] }>();
  for (const [key, value] of Object.entries(parsed.data.answers)) {
    const index = questionIndexOf(questions, key);
    if (index === null) {
      unknownKeys.push(key);
      continue;
    }
    const earlier = given.get(index);
    if (earlier === undefined) given.set(index, { key, value });
    else {
      const text = questions[index]!.question;
      problems.push(`"${text}" is answered twice (as "${earlier.key}" and as "${key}")`);
    }
  }
  if (unknownKeys.length > 0) {
    const noun = unknownKeys.length === 1 ? "key" : "keys";
    problems.unshift(
      `unknown question ${noun} ${quoted(unknownKeys)} (answers are keyed by question text or by index 0 to ${questions.length - 1})`,
    );
  }
  const notes = new Map<number, string>();
  for (const [key, annotation] of Object.entries(parsed.data.annotations ?? {})) {
    const index = questionIndexOf(questions, key);
    const note = annotation.notes.trim();
    if (index === null) problems.push(`a note names unknown question "${key}"`);
    else if (note.length > MAX_NOTE_CHARS) {
      problems.push(
        `the note on "${questions[index]!.question}" is longer than ${MAX_NOTE_CHARS} characters`,
      );
    } else if (note !== "") notes.set(index, note);
  }
  const selections: [string, QuestionSelection][] = [];
  questions.forEach((question, index) => {
    const entry = given.get(index);
    if (entry === undefined) {
      problems.push(`no answer for "${question.question}"`);
      return;
    }
    const selection = readSelection(question, entry.value);
    if (typeof selection === "string") problems.push(selection);
    else selections.push([question.question, selection]);
  });
  if (problems.length > 0) {
    const message = problems.join("; ");
    return { ok: false, message: message.charAt(0).toUpperCase() + message.slice(1) };
  }
  const answers = selections.map(([text, { labels, other }]): [string, string] => [
    text,
    (other === null ? labels : [...labels, other]).join(ANSWER_JOINER),
  ]);
  const annotations = questions.flatMap((question, index): [string, QuestionAnnotation][] => {
    const note = notes.get(index);
    const chosen = selections.find(([text]) => text === question.question)?.[1].labels ?? [];
    const preview = question.options.find((option) => chosen.includes(option.label))?.preview;
    if (note === undefined && preview === undefined) return [];
    return [[question.question, { ...(note ? { notes: note } : {}), ...(preview ? { preview } : {}) }]];
  });
  // fromEntries defines own properties, so a question titled "__proto__" cannot touch the prototype.
  return {
    ok: true,
    response: {
      answers: Object.fromEntries(answers),
      selections: Object.fromEntries(selections),
      ...(annotations.length > 0 ? { annotations: Object.fromEntries(annotations) } : {}),
    },
  };
}
