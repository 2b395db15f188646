// How Parley reads a shell command, in one place, for grants, denies, approval policies and risk:
// the simple commands in it (nested ones too), each with its words as the shell passes them,
// whether it is plain, and the parts Parley could not read. The parser is bash's (unbash).
import type { Command, ParsedScript, Statement, SyntaxNode, Word } from "unbash";
import { loadedParser, type ShellParser } from "./shell-reader";
import { plainAssignment, plainWord, wordValue } from "./shell-words";

/** One simple command: a program and its arguments. */
export interface SimpleCommand {
  /** The command as written, assignments included (for a nested command, its words joined). */
  source: string;
  /** Its words after quote removal; null where a word is known only when it runs (`$x`, `*.ts`). */
  words: readonly (string | null)[];
  /** Whether an allow may cover it: a command of the top-level list, of plain words, unredirected. */
  plain: boolean;
}

export interface ShellReading {
  /** Every simple command in the line, in the order they appear, nested ones included. */
  commands: readonly SimpleCommand[];
  /** Whether the line is only simple commands joined by `;`, `&&`, `||`, `|` and newlines. */
  list: boolean;
  /** What Parley could not read; empty when it read everything. */
  unread: readonly string[];
  /** Every file redirection anywhere in the line (`> out`, `< in`), its target null when known only when it runs. */
  redirects: readonly FileRedirect[];
}

/** A redirection to or from a file: `>`, `>>`, `>|`, `&>`, `&>>`, `<>` write it; `<` reads it. */
export interface FileRedirect {
  writes: boolean;
  target: string | null;
}

/** How deep substitutions may nest before the rest is left unread. */
const MAX_DEPTH = 16;

/** Reads `command`; before the parser is loaded, nothing is read (an allow then asks, a deny covers). */
export function readShell(command: string): ShellReading {
  const parser = loadedParser();
  if (!parser)
    return { commands: [], list: false, unread: ["the shell parser is not loaded"], redirects: [] };
  let script: ParsedScript;
  try {
    script = parser.parse(command);
  } catch (error) {
    return { commands: [], list: false, unread: [`the parser failed: ${String(error)}`], redirects: [] };
  }
  const unread = (script.errors ?? []).map((error) => `${error.message} at ${error.pos}`);
  const topLevel = new Set<Command>();
  const list = script.commands.every((statement) => listOfSimple(statement, topLevel));
  const commands: SimpleCommand[] = [];
  const redirects: FileRedirect[] = [];
  collect(
    parser,
    script,
    (node) => {
      const plain = topLevel.has(node) && plainCommand(node);
      commands.push({
        source: topLevel.has(node) ? command.slice(node.pos, node.end) : wordsOf(node).join(" "),
        words: wordsOf(node),
        plain,
      });
    },
    unread,
    redirects,
  );
  return { commands, list, unread, redirects };
}

/** Whether a statement is simple commands joined by `&&`, `||` and `|` (collecting them). */
function listOfSimple(statement: Statement, into: Set<Command>): boolean {
  if (statement.background) return false;
  const node = statement.command;
  const pipelines = node.type === "AndOr" ? node.commands : [node];
  return pipelines.every((pipeline) => {
    if (pipeline.type === "Command") return keep(into, pipeline);
    if (pipeline.type !== "Pipeline" || pipeline.prefixes.length > 0) return false;
    if (pipeline.operators.some((operator) => operator !== "|")) return false;
    return pipeline.commands.every((part) => part.type === "Command" && keep(into, part));
  });
}

function keep(into: Set<Command>, node: Command): true {
  into.add(node);
  return true;
}

/** Calls `found` for every simple command anywhere in the tree, and notes what it cannot read. */
function collect(
  parser: ShellParser,
  root: ParsedScript,
  found: (node: Command) => void,
  unread: string[],
  redirects: FileRedirect[],
): void {
  const visit = (node: SyntaxNode, level: number): void => {
    switch (node.type) {
      case "Command":
        found(node);
        break;
      case "CommandExpansion":
      case "ProcessSubstitution":
      case "ArithmeticCommandExpansion":
        if (!node.script) {
          unread.push(`a substitution Parley could not parse: ${node.text}`);
          return;
        }
        if (level + 1 > MAX_DEPTH) {
          unread.push("substitutions nested too deep");
          return;
        }
        for (const error of node.script.errors ?? []) unread.push(`${error.message} in ${node.text}`);
        parser.forEachChild(node, (child) => visit(child, level + 1));
        return;
      case "Redirect": {
        // `2>&1` and `<&3` duplicate a descriptor; `>&-` closes one: no file is named.
        const target = node.target ? wordValue(node.target) : null;
        const duplicates =
          (node.operator === ">&" || node.operator === "<&") && /^(\d+|-)$/.test(target ?? "");
        if (!duplicates) redirects.push({ writes: node.operator !== "<" && node.operator !== "<&", target });
        break;
      }
      case "ExtendedGlob":
        // zsh reads `*(e:'…':)` and `*(+cmd)` as glob qualifiers, which run code.
        unread.push(`a pattern zsh may run as code: ${node.text}`);
        return;
      case "ParameterExpansion":
        // zsh's flags (`${(e)x}` evaluates) and operators bash does not know.
        if (node.operation?.type === "Unknown" || /^\$\{[(~=^]/.test(node.text))
          unread.push(`an expansion zsh may run as code: ${node.text}`);
        break;
    }
    parser.forEachChild(node, (child) => visit(child, level));
  };
  visit(root, 0);
}

function wordsOf(node: Command): (string | null)[] {
  const words: (string | null)[] = node.name ? [wordValue(node.name)] : [];
  for (const item of node.suffix) {
    if (item.type === "Word") words.push(wordValue(item));
    else if (item.type === "Assignment") {
      const value = item.value.type === "Word" ? wordValue(item.value) : null;
      words.push(value === null ? null : `${item.name}=${value}`);
    }
  }
  return words;
}

/** Plain: a literal program, plain words and assignments, and no redirection or here-document. */
function plainCommand(node: Command): boolean {
  if (!node.name || !plainWord(node.name) || /\s/.test(node.name.value)) return false;
  const items = [...node.prefix, ...node.suffix];
  return items.every((item) =>
    item.type === "Word" ? plainWord(item as Word) : item.type === "Assignment" && plainAssignment(item),
  );
}
