// A card whose tool is not known (an ACP call named by its kind) offers no grant anywhere — not in
// chat, not in the terminal — and the session refuses one sent anyway; approving or denying the
// call itself still works.
import { describe, expect, it } from "vitest";
import { cardForPermission } from "../../../../bin/acp/acp-permissions";
import { type Card, promptFor } from "../../../../bin/card-prompts";
import { approvalInteraction } from "../../../../src/interactions/kinds/approval";
import { approvalChatView } from "../../../../src/interactions/kinds/approval-view";
import { run } from "../../../helpers/terminal-prompts";

function acpCard(rawInput: unknown) {
  return cardForPermission({
    sessionId: "s1",
    options: [
      { optionId: "yes", name: "Allow", kind: "allow_once" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
    toolCall: { toolCallId: "toolu_1", title: "ls", kind: "execute", rawInput },
  }).request;
}

const unknown = acpCard({ command: "ls", workdir: "/etc" });
const known = acpCard({ command: "ls" });

describe("a card whose tool is not known", () => {
  it("is named acp:<kind>, and a Bash call of the known shape is named Bash", () => {
    expect(unknown.toolName).toBe("acp:execute");
    expect(known.toolName).toBe("Bash");
  });

  it("offers Allow… in chat only where the tool is known", () => {
    const labels = (request: unknown) =>
      approvalChatView.choices(request, null).map((choice) => choice.label);
    expect(labels(unknown)).not.toContain("Allow…");
    expect(labels(unknown)).toContain("Approve");
    // Where the card opens, Parley adds the grant it may offer; a known tool's exact rule covers it.
    expect(labels({ ...known, grantOffer: { rule: "Bash(ls)", covers: true } })).toContain("Allow…");
  });

  it("offers no g) in the terminal, and g there starts no grant", () => {
    const card: Card = {
      interactionId: "i1",
      toolCallId: "i1",
      kind: "approval",
      toolName: unknown.toolName,
      request: unknown,
    };
    const [shown, typed] = run(card, ["g"]);
    expect(JSON.stringify(shown)).not.toContain("g) allow");
    expect(typed).toMatchObject({ kind: "ask", lines: ["Type a, l, e or d."], prompt: "a/l/e/d› " });
    expect(promptFor({ ...card, toolName: "Bash", request: known })?.start()).toMatchObject({
      prompt: "a/l/g/e/d› ",
    });
  });

  it("refuses a grant sent anyway, and still takes a plain approve or deny", () => {
    const parse = (raw: unknown) => approvalInteraction.parseResponse(unknown, raw);
    const granted = parse({ decision: "approve", grant: { rule: "Bash", scope: "session" } });
    expect(granted).toMatchObject({
      ok: false,
      message: expect.stringContaining("its tool is not known (acp:execute)"),
    });
    expect(parse({ decision: "approve" })).toMatchObject({ ok: true });
    expect(parse({ decision: "deny" })).toMatchObject({ ok: true });
    expect(
      approvalInteraction.parseResponse(known, {
        decision: "approve",
        grant: { rule: "Bash(ls)", scope: "session" },
      }),
    ).toMatchObject({ ok: true });
  });
});
