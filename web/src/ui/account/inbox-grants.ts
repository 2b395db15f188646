// The inbox's Grants: every active grant of the person with its rule, what it matches, scope,
// expiry, uses and last use, revoked in one tap; those ended in the last week stay, greyed.
import { listGrants, revokeGrant } from "../../../../client/grants-api";
import type { InboxTarget } from "../../../../client/inbox-api";
import type { GrantView } from "../../../../src/protocol/grants/grants";
import { h, setText } from "../dom";

function when(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function scopeWords(grant: GrantView): string {
  if (grant.scope === "all") return "Everywhere";
  if (grant.scope === "agent")
    return `Agent ${grant.agent?.name ?? "?"}${grant.agent?.key ? ` (${grant.agent.key})` : ""}`;
  return `Session ${grant.sessionId?.slice(0, 8) ?? "?"}`;
}

function endWords(grant: GrantView, now: number): string {
  if (grant.revokedAt !== null) return `Revoked ${when(grant.revokedAt)}`;
  if (grant.expiresAt === null) return "Until revoked";
  return grant.expiresAt > now ? `Until ${when(grant.expiresAt)}` : `Expired ${when(grant.expiresAt)}`;
}

export class InboxGrants {
  private readonly list = h("ul", { class: "record-list" });
  private readonly empty = h("p", { class: "hint", text: "No grants. Make one from a card with “Allow …”." });
  private readonly note = h("p", { class: "inbox-alert", role: "status" });
  readonly el = h(
    "section",
    { class: "inbox-grants", "aria-labelledby": "inbox-grants-heading" },
    h("h2", { id: "inbox-grants-heading", text: "Grants" }),
    this.note,
    this.empty,
    this.list,
  );

  constructor(private readonly target: InboxTarget) {}

  async refresh(): Promise<void> {
    try {
      const grants = await listGrants(this.target);
      const now = Date.now();
      this.empty.hidden = grants.length > 0;
      this.list.replaceChildren(...grants.map((grant) => this.row(grant, now)));
      setText(this.note, "");
    } catch (error) {
      setText(this.note, `Could not list grants: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private row(grant: GrantView, now: number): HTMLElement {
    const revoke = h("button", {
      type: "button",
      class: "danger record-action",
      text: "Revoke",
      "aria-label": `Revoke ${grant.effect} ${grant.rule}`,
    });
    revoke.addEventListener("click", async () => {
      revoke.disabled = true;
      try {
        await revokeGrant(this.target, grant.grantId);
        await this.refresh();
      } catch (error) {
        setText(this.note, `Could not revoke: ${error instanceof Error ? error.message : String(error)}`);
        revoke.disabled = false;
      }
    });
    const uses = grant.uses === 1 ? "Used once" : `Used ${grant.uses} times`;
    return h(
      "li",
      { class: "record", "data-grant-id": grant.grantId, "data-active": String(grant.active) },
      h("span", {
        class: `chip grant-effect-${grant.effect}`,
        text: grant.effect === "allow" ? "Allow" : "Deny",
      }),
      h("code", { class: "record-title", text: grant.rule }),
      h("span", { class: "record-detail", text: grant.matches }),
      h("span", { class: "record-meta", text: scopeWords(grant) }),
      h("span", { class: "record-meta", text: endWords(grant, now) }),
      h("span", {
        class: "record-meta",
        text: grant.lastUsedAt === null ? "Not used yet" : `${uses}, last ${when(grant.lastUsedAt)}`,
      }),
      grant.active ? revoke : h("span", { class: "record-meta", text: "Ended" }),
    );
  }
}
