// A kind lives in its own files plus one line in each registry (docs/style.md). This searches every
// file under src/, web/src, client/ and bin/ for code that names one of the five kinds — its name
// quoted, an identifier one of its own modules exports, or an import of one of its modules — and
// fails when a file not listed below does; a file that stops naming one must leave the list too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { kindMentions, ownerOf } from "./kind-mentions";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The files outside the kinds that still name one, each for a reason of its own. `plan`, `form` and
 * `url` are also a permission mode, MCP's elicitation modes, an HTML element and a tool's field:
 * those files name the word, not the kind.
 */
const KNOWN: Record<string, string> = {
  "src/protocol/wire/seed-names.ts": "the one module of the seed kinds' older events, commands and routes",
  "src/protocol/session/session.ts": "`plan` is a permission mode there, not the kind",
  "src/agent/permission-policy.ts": "`plan` is the permission mode, and `deny` the policy's own verdict",
  "web/src/ui/session/status-bar.ts": "`plan` is the permission mode the status bar switches to",
  "src/protocol/forms/elicitation.ts": "`form` and `url` are MCP's elicitation modes",
  "src/interactions/elicitation-kinds.ts": "maps MCP's elicitation modes onto the kinds of the same names",
  "src/mcp/elicit-request.ts": "`url` is MCP's elicitation mode",
  "src/mcp/live-forms.ts": "`url` is MCP's elicitation mode",
  "src/mcp/mcp-rounds.ts": "`url` is MCP's elicitation mode",
  "src/grants/narrowest-rule.ts": "`url` is a web tool's input field a rule narrows to its domain",
  "src/grants/rule-match.ts":
    "`url` is a web tool's input field, and `deny` a grant's effect (Claude Code's word)",
  "web/src/ui/session/composer.ts": "`form` is the HTML element",
  "web/src/ui/account/connect-agent.ts": "`form` is the HTML element",
  "web/src/ui/account/inbox-history.ts": "`form` is the HTML element",
  "web/src/ui/inbox-page.ts": "`form` is the HTML element",
  "web/src/ui/inbox/landing.ts": "`form` is the HTML element",
  "web/src/ui/account/inbox-machines.ts": "`form` is the HTML element",
  "web/src/ui/people/people-section.ts": "`form` is the HTML element",
  "src/grants/tool-inputs.ts": "`url` is a web tool's input field",
  "bin/acp/acp-progress.ts": "`plan` is an ACP agent's own plan update, not a card",
  "src/protocol/cards/deadline-policy.ts":
    "its `deny` is what a deadline does (the seeds' default), not the command",
  "src/grants/grant-decision.ts": "its `deny` is a grant's effect (Claude Code's word), not the command",
  "src/grants/approvals-needed.ts":
    "reads a rule that asks for more approvals as a `deny` (Claude Code's word) reads it, not the command",
  "src/protocol/grants/grants.ts": "its `deny` is a grant's effect (Claude Code's word), not the command",
  "src/agent/ports.ts": "a grant's effect, `allow` or `deny`, decides approvals",
  "src/agent/external-interaction.ts": "its `deny` is a grant's effect, which decides even a two-person card",
  "src/agent/resolve-interaction.ts": "resolves an approval as a grant decided it, approved or denied",
  "src/agent/tool-phase.ts": "its `deny` is the permission policy's verdict, not the command",
  "web/src/ui/session/batch-bar.ts": "`approve` and `deny` are the batch command's own two decisions",
  "src/agent/batch-decision.ts":
    "`approve` is the batch command's own decision, which never takes a high-risk call",
  // A notification's Approve and Deny are its own two actions, which answer only a card one plain
  // approve or deny decides (src/notify/push-actions.ts), never the command's other choices.
  "src/notify/push-sender.ts": "`approve` and `deny` are a notification's two actions",
  "src/email/card-link.ts": "`approve` and `deny` are the decisions a mailed card link's token may carry",
  "src/router/reach/email-routes.ts":
    "`approve` and `deny` are the two decisions a mailed card link answers with",
  "src/email/email-reply.ts": "`approve` and `deny` are the two words a reply to a card's email answers with",
  "src/email/escalation-email.ts": "writes an approval's whole call into its mail, as a notification does",
  "src/people/approver-answer.ts":
    "`approve` and `deny` are the only two decisions an invited approver may make",
  "src/people/approver-scope.ts":
    "reads a rule-scoped invite as a `deny` rule (Claude Code's word) reads a call",
  "src/tokens/push-answer-token.ts": "`approve` and `deny` are the decisions a push answer token binds",
  "src/protocol/reach/push-answer.ts": "`approve` and `deny` are a push answer's two decisions",
  "src/router/reach/push-answer-route.ts": "maps a push answer's `approve` onto the outcome it records",
  "src/objects/contracts/session-inbox.ts": "`approve` and `deny` are a push answer's two decisions",
  "src/router/sessions/mcp-remote-ask.ts": "answers Claude Code's permission-prompt tool with its own `deny`",
  // The bridges are agents outside Parley: on the wire they say which kind of card they open.
  "client/external-agent.ts": "an external agent names the kind of card it opens",
  "src/bridge/claude-card.ts": "maps Claude Code's permission requests onto the kinds of card",
  "src/bridge/claude-decision.ts": "maps a resolved card back onto Claude Code's allow or deny",
  "client/agent-sdk.ts": "maps the Agent SDK's canUseTool onto an approval",
  "src/bridge/approve-tool.ts": "names the MCP tool Claude Code calls (`mcp__parley__approve`)",
  "bin/parley-mcp.ts": "maps Claude Code's permission-prompt tool onto the seed kinds",
  "bin/parley-hook.ts": "maps Claude Code's permission hook onto an approval",
  "bin/acp/acp-elicitation.ts": "maps an ACP agent's elicitation modes onto the form and url cards",
  "bin/acp/acp-permissions.ts": "maps an ACP agent's permission request onto an approval and its ACP details",
};

describe("kind names outside their kinds", () => {
  const mentions = kindMentions(ROOT);

  it("appear only in the files known to name them", () => {
    const unknown = Object.fromEntries(Object.entries(mentions).filter(([file]) => !(file in KNOWN)));
    expect(unknown).toEqual({});
  });

  it("are listed only while a file still names one, so the list shrinks as they go", () => {
    expect(Object.keys(KNOWN).filter((file) => !(file in mentions))).toEqual([]);
  });

  it("never appear in the agent loop, the session, the router or the page's shared code", () => {
    const inner = /^(src\/(agent|session|router|notify|inbox|channels)\/|web\/src\/(?!ui\/))/;
    // `approve` and `deny` stay: they are also a grant's effect and the policy's verdict.
    const shared = new Set(['approval: "approve"', 'approval: "deny"']);
    const named = Object.entries(mentions)
      .filter(([file]) => inner.test(file) && !/^src\/agent\/permission-policy\.ts$/.test(file))
      .map(([file, found]): [string, string[]] => [file, found.filter((mention) => !shared.has(mention))])
      .filter(([, found]) => found.length > 0);
    expect(Object.fromEntries(named)).toEqual({});
  });
});

describe("the kind-name search", () => {
  const tree = mkdtempSync(path.join(tmpdir(), "kind-names-"));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  function write(file: string, text: string): void {
    mkdirSync(path.join(tree, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }

  write(
    "src/interactions/kinds/plan-view.ts",
    'export const PLAN_OPTIONS = [];\nexport function planOf(request: unknown) { return "plan"; }\n',
  );
  write("src/interactions/kinds/names.ts", 'export const BUILTIN_KIND_NAMES = ["plan"];\n');
  write(
    "web/src/ui/kinds/plan-card.ts",
    'import { planOf } from "../../../src/interactions/kinds/plan-view";\n',
  );
  write("bin/quoted.ts", 'const kind = "approval";\n');
  write("src/agent/uses-identifier.ts", "export const choices = PLAN_OPTIONS.length;\n");
  write("src/session/imports-kind.ts", 'import type { X } from "../interactions/kinds/question-answers";\n');
  write("client/dynamic.ts", 'const view = await import("../src/interactions/kinds/url-view");\n');
  write("web/src/commented.ts", '// the "question" kind, named in a comment only\nexport const a = 1;\n');
  write("src/config.ts", 'import { BUILTIN_KIND_NAMES } from "./interactions/kinds/names";\n');

  it("finds a quoted name, a kind's own identifier and an import of a kind's module in an outside file", () => {
    expect(kindMentions(tree)).toEqual({
      "bin/quoted.ts": ["approval: quoted name"],
      "src/agent/uses-identifier.ts": ["plan: PLAN_OPTIONS"],
      "src/session/imports-kind.ts": ["question: imports src/interactions/kinds/question-answers.ts"],
      "client/dynamic.ts": ["url: imports src/interactions/kinds/url-view.ts"],
    });
  });

  it("leaves a kind's own files, the registries and comments alone", () => {
    expect(ownerOf("web/src/ui/kinds/plan-card.ts")).toBe("plan");
    expect(ownerOf("bin/plan-prompt.ts")).toBe("plan");
    expect(ownerOf("src/interactions/kinds/question-answers.ts")).toBe("question");
    expect(ownerOf("src/interactions/kinds/names.ts")).toBeNull();
    expect(ownerOf("bin/card-prompts.ts")).toBeNull();
    const found = kindMentions(tree);
    for (const file of ["web/src/ui/kinds/plan-card.ts", "src/config.ts", "web/src/commented.ts"])
      expect(found).not.toHaveProperty([file]);
  });
});
