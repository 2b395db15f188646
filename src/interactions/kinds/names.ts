// The built-in kinds' names alone, for what checks a name without running a kind: the deployment's
// configuration reads them at start-up (loading every kind's schemas there cost every request), and
// the session, the grants and the page name the roles a kind plays here, never the kind itself.
// One line per kind, beside its line in \`BUILTIN_INTERACTIONS\` (a test keeps the two alike).
export const BUILTIN_KIND_NAMES: readonly string[] = ["question", "form", "approval", "plan", "url"];

/**
 * The permission gate: the kind the loop opens before a tool the policy asks about runs, which an
 * external agent opens for its own tools, and which the person's grants may decide at once.
 */
export const PERMISSION_GATE_KIND = "approval";

/** The kinds whose open cards one decision may decide together (each has `batchResponse`). */
export const BATCHED_KIND_NAMES: readonly string[] = ["approval"];
