// How a shell command meets a Bash rule. An allow never covers more than one plain command: any
// shell operator, substitution, redirection or newline anywhere (quoted or not) means no match.

/**
 * Characters that can chain, substitute or redirect: `;` `&` `|` `` ` `` `$` `<` `>`, newlines and
 * NUL. Quotes would make some of them literal, but a rule is not a shell parser: such a command is
 * asked about, never allowed by a rule.
 */
const SHELL_CONTROL = /[;&|`$<>\n\r\0]/;
/** Where one command of a compound line ends and the next begins, for deny rules. */
const SEPARATORS = /&&|\|\||[;&|\n\r`]|\$\(|<\(|>\(|\)/;

/** Whether `command` may be allowed by `pattern` (`npm run build`, `npm run test:*`, `git * main`). */
export function commandAllowed(pattern: string, command: string): boolean {
  if (SHELL_CONTROL.test(command)) return false;
  return commandFits(pattern, command.trim());
}

/**
 * Whether `pattern` denies `command`: the whole line, or any one command in it (`ls && rm -rf x`
 * is refused by `Bash(rm:*)`), so chaining cannot slip past a deny rule.
 */
export function commandDenied(pattern: string, command: string): boolean {
  if (commandFits(pattern, command.trim())) return true;
  return command
    .split(SEPARATORS)
    .map((part) => part.trim().replace(/^[({!]+\s*/, ""))
    .some((part) => part !== "" && commandFits(pattern, part));
}

function commandFits(pattern: string, command: string): boolean {
  // The legacy `prefix:*`: the prefix itself, or the prefix then a space (a word boundary).
  if (pattern.endsWith(":*")) {
    const prefix = pattern.slice(0, -2).trimEnd();
    return command === prefix || command.startsWith(`${prefix} `);
  }
  if (!pattern.includes("*")) return command === pattern;
  // `*` is any text; a single trailing ` *` is optional, so `ls *` also matches `ls`.
  const stars = pattern.split("*").length - 1;
  const optionalTail = stars === 1 && pattern.endsWith(" *");
  const body = optionalTail ? pattern.slice(0, -2) : pattern;
  const source = body.split("*").map(escapeRegExp).join(".*");
  return new RegExp(`^${source}${optionalTail ? "(?: .*)?" : ""}$`, "s").test(command);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
