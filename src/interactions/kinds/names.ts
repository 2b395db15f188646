// The built-in kinds' names alone, for what checks a name without running a kind: the deployment's
// configuration reads them at start-up, and loading every kind's schemas there cost every request.
// One line per kind, beside its line in \`BUILTIN_INTERACTIONS\` (a test keeps the two alike).
export const BUILTIN_KIND_NAMES: readonly string[] = ["question", "form", "approval", "plan", "url"];
