// "Allow … for [this session / this agent / everywhere] [until …]" on an approval card: the
// narrowest rule pre-filled (the exact command, the file's folder) or the agent's own suggestion,
// editable, with a preview of what it matches; approving also makes the person's grant.
import { describeRule, parseRule } from "../../../../src/grants/grant-rule";
import { narrowestRule, prefilledRule } from "../../../../src/grants/narrowest-rule";
import { approvalReachesBeyondCard } from "../../../../src/interactions/kinds/approval-view";
import type { CardGrant } from "../../../../src/protocol/grants/grants";
import { mayChoose, roleOfPage } from "../cards/owner-choices";
import { h } from "../dom";

const SCOPES = [
  ["session", "this session"],
  ["agent", "this agent"],
  ["all", "everywhere"],
] as const;
const EXPIRIES = [
  ["3600", "for 1 hour"],
  ["86400", "for 1 day"],
  ["604800", "for 7 days"],
  ["", "until revoked"],
] as const;

let formCount = 0;

export class GrantForm {
  readonly el: HTMLElement;
  readonly toggle: HTMLButtonElement;
  private readonly rule: HTMLInputElement;
  private readonly scope: HTMLSelectElement;
  private readonly expiry: HTMLSelectElement;
  private readonly preview: HTMLElement;
  private readonly approveButton: HTMLButtonElement;

  constructor(
    toolName: string,
    input: unknown,
    suggested: readonly string[],
    onApprove: (grant: CardGrant) => void,
  ) {
    const id = `grant-${++formCount}`;
    this.rule = h("input", {
      type: "text",
      id: `${id}-rule`,
      class: "grant-rule",
      spellcheck: "false",
      autocomplete: "off",
      maxlength: "2000",
      list: `${id}-suggested`,
    });
    this.rule.value = prefilledRule(toolName, input, suggested);
    const options = [...new Set([narrowestRule(toolName, input), ...suggested, toolName])];
    const datalist = h(
      "datalist",
      { id: `${id}-suggested` },
      ...options.map((value) => h("option", { value })),
    );
    this.scope = h(
      "select",
      { id: `${id}-scope` },
      ...SCOPES.map(([value, label]) => h("option", { value, text: label })),
    );
    this.expiry = h(
      "select",
      { id: `${id}-expiry`, "aria-label": "How long" },
      ...EXPIRIES.map(([value, label]) => h("option", { value, text: label })),
    );
    this.expiry.value = "86400";
    this.preview = h("p", { class: "grant-preview", "aria-live": "polite" });
    this.approveButton = h("button", {
      type: "button",
      class: "primary",
      text: "Approve and allow",
      on: {
        click: () => {
          const grant = this.read();
          if (grant) onApprove(grant);
        },
      },
    });
    this.rule.addEventListener("input", () => this.showPreview());
    this.el = h(
      "div",
      { class: "grant-form", hidden: true },
      h("label", { for: this.rule.id, text: "Allow" }),
      this.rule,
      datalist,
      h("label", { for: this.scope.id, text: "for" }),
      this.scope,
      this.expiry,
      this.preview,
      h("div", { class: "card-actions" }, this.approveButton),
    );
    this.toggle = h("button", {
      type: "button",
      text: "Allow …",
      title: "Approve, and allow calls like this without asking: choose the rule, where and how long",
      "aria-expanded": "false",
      on: { click: () => this.show(this.el.hidden !== false) },
    });
    this.showPreview();
  }

  lock(locked: boolean): void {
    for (const control of [this.rule, this.scope, this.expiry, this.approveButton, this.toggle])
      control.disabled = locked;
  }

  private show(open: boolean): void {
    // Only the owner may allow beyond this session; other links are offered this session alone.
    const role = roleOfPage(this.el);
    for (const option of this.scope.options) {
      const answer = { decision: "approve", grant: { scope: option.value } };
      option.disabled = !mayChoose(role, approvalReachesBeyondCard(answer));
    }
    this.el.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) this.rule.focus();
  }

  private showPreview(): void {
    const parsed = parseRule(this.rule.value);
    this.preview.textContent = parsed.ok ? `Matches ${describeRule(parsed.rule)}.` : parsed.message;
    this.preview.classList.toggle("grant-problem", !parsed.ok);
    this.approveButton.disabled = !parsed.ok;
  }

  private read(): CardGrant | null {
    const parsed = parseRule(this.rule.value);
    if (!parsed.ok) return null;
    const scope = this.scope.value as CardGrant["scope"];
    const seconds = this.expiry.value ? Number(this.expiry.value) : undefined;
    return { rule: this.rule.value.trim(), scope, ...(seconds ? { expiresInSeconds: seconds } : {}) };
  }
}
