// Scripted model replies for Parley sessions (accepted with ALLOW_SCRIPTED_SESSIONS=true).

/** The question every question-asking script puts, and the answer the benchmark gives. */
export const QUESTION = "Which colour should the report use?";
export const ANSWERS = { [QUESTION]: "Blue" };

/**
 * A text of `deltas` chunks of `chunk` characters each; every chunk is distinct (a base-36 counter),
 * so a device can check that it received the text whole and in order.
 * @param {number} deltas
 * @param {number} chunk
 */
export function countingText(deltas, chunk) {
  let text = "";
  for (let i = 0; i < deltas; i++) text += i.toString(36).padStart(chunk, "0").slice(-chunk);
  return text;
}

/**
 * A scripted reply streams in one task, while a reply from the network arrives in chunks, each
 * handled in a task of its own; and what a Durable Object sends leaves only when its task ends.
 * Ending the task after the first text delta (a pause of 0 ms: a task boundary, no wait), as the
 * end of a first network chunk would, lets "first text" time the first text. Without it, the rest
 * of the reply (the turn's end, or the next card stored) runs in the same task before that frame
 * can leave, which no model's stream would cause.
 */
export const FIRST_TEXT_ALONE = Object.freeze({ pause: Object.freeze({ afterEvents: 3, ms: 0 }) });

/**
 * A reply that streams `text` as deltas of `textChunkSize` characters, `paceMs` apart.
 * @param {string} text
 * @param {{ textChunkSize?: number, paceMs?: number, firstTextAlone?: boolean }} [options]
 */
export function textReply(text, { textChunkSize, paceMs, firstTextAlone } = {}) {
  return {
    content: [{ type: "text", text }],
    stopReason: "end_turn",
    ...(textChunkSize ? { textChunkSize } : {}),
    ...(paceMs ? { paceMs } : {}),
    ...(firstTextAlone ? FIRST_TEXT_ALONE : {}),
  };
}

/**
 * A reply that asks the benchmark's question; `text` is streamed first when given, and its first
 * delta ends the task (FIRST_TEXT_ALONE).
 * @param {string} [id] tool call id; the scripted model numbers calls itself when absent
 * @param {string} [text]
 */
export function questionReply(id, text) {
  return {
    ...(text ? FIRST_TEXT_ALONE : {}),
    content: [
      ...(text ? [{ type: "text", text }] : []),
      {
        type: "tool_use",
        ...(id ? { id } : {}),
        name: "AskUserQuestion",
        input: {
          questions: [
            {
              question: QUESTION,
              header: "Colour",
              options: [
                { label: "Blue", description: "Calm and readable" },
                { label: "Green", description: "Matches the logo" },
              ],
              multiSelect: false,
            },
          ],
        },
      },
    ],
    stopReason: "tool_use",
  };
}

/**
 * A call to an edit-class tool, which permission mode "default" sends for approval.
 * @param {string} id
 */
export function approvalReply(id) {
  return {
    content: [{ type: "tool_use", id, name: "notes_write", input: { key: "bench", text: "benchmark note" } }],
    stopReason: "tool_use",
  };
}
