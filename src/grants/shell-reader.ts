// The bash parser (unbash), loaded on first use: the Worker's split build puts it in a chunk of its
// own, so a start compiles none of it and only a call that meets a Bash rule pays for it once.
import type { ParsedScript, SyntaxNode } from "unbash";

/** The parser and its tree walk (a node's parts are built when first read, so walk with it). */
export interface ShellParser {
  parse: (source: string) => ParsedScript;
  forEachChild: (node: SyntaxNode, callback: (child: SyntaxNode) => void) => void;
}

// INVARIANT: only the loaded parser is kept; losing it (a new isolate) means loading it again.
let parser: ShellParser | null = null;
let loading: Promise<void> | null = null;

/** Loads the parser once per isolate; await it before deciding a call by a Bash rule. */
export function loadShellReader(): Promise<void> {
  loading ??= import("unbash").then(
    (module) => {
      parser = { parse: module.parse, forEachChild: module.forEachChild };
    },
    (error: unknown) => {
      // A failed load is tried again by the next call rather than remembered.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The loaded parser, or null before `loadShellReader` has finished (a reading then fails closed). */
export function loadedParser(): ShellParser | null {
  return parser;
}
