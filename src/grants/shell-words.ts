// Which words of a command Parley takes at face value. The parser is bash's and zsh reads some
// text differently, so a plain word is a whitelist that means the same to both: no expansion of
// any kind, no glob, no brace, no `~`, no `!`, no leading `=` (zsh's `=cmd` names a program's path).
import type { Assignment, Word, WordPart } from "unbash";

/** Unquoted text that no shell rewrites. */
const UNQUOTED_PLAIN = /^[A-Za-z0-9_./:@%+,=-]*$/;
/** Inside double quotes, the characters that bash or zsh still act on. */
const DOUBLE_QUOTED_ACTIVE = /[$`\\!]/;

/** Whether `word` is plain: the same literal text to bash and to zsh. */
export function plainWord(word: Word): boolean {
  if (word.text.startsWith("=")) return false;
  if (!word.parts) return UNQUOTED_PLAIN.test(word.text);
  return word.parts.every(plainPart);
}

export function plainAssignment(assignment: Assignment): boolean {
  if (assignment.append || assignment.index || assignment.value.type !== "Word") return false;
  return plainWord(assignment.value);
}

function plainPart(part: WordPart): boolean {
  switch (part.type) {
    case "Literal":
      return UNQUOTED_PLAIN.test(part.text);
    case "SingleQuoted":
      return true;
    case "DoubleQuoted":
      return (
        part.parts.every((child) => child.type === "Literal") &&
        !DOUBLE_QUOTED_ACTIVE.test(part.text.slice(1, -1))
      );
    default:
      return false;
  }
}

/** A word's value after quote removal when that is known before it runs; else null. */
export function wordValue(word: Word): string | null {
  if (!word.parts) return word.value;
  return word.parts.every(literalPart) ? word.value : null;
}

function literalPart(part: WordPart): boolean {
  switch (part.type) {
    case "Literal":
    case "SingleQuoted":
    case "AnsiCQuoted":
      return true;
    case "DoubleQuoted":
    case "LocaleString":
      return part.parts.every((child) => child.type === "Literal");
    default:
      return false;
  }
}
