// "Open on another device" (owner only): mints a share link — `answer` by default, or view only,
// with an optional lifetime and label — copies it, and lists the active links with a revoke button.

import { listLinks, mintLink, revokeLink } from "../../../../client/session-api";
import type { SessionRoute } from "../../../../client/session-link";
import type { ShareLinkView } from "../../../../src/protocol/index";
import { h, replaceChildren, setText } from "../dom";

const LIFETIMES: Array<[string, number | undefined]> = [
  ["Until revoked", undefined],
  ["1 hour", 3_600],
  ["1 day", 86_400],
  ["7 days", 604_800],
];

/** How the list words each role. */
const ROLE_WORDS = {
  view: "view only",
  answer: "can answer",
  agent: "agent (opens cards, never answers)",
} as const;

export class SharePanel {
  readonly el: HTMLDetailsElement;
  private readonly field = h("input", {
    type: "text",
    class: "share-url",
    readonly: true,
    placeholder: "Create a link to see it here",
    "aria-label": "Share link for this session",
  });
  private readonly status = h("span", { class: "share-status", role: "status" });
  private readonly role = h(
    "select",
    { "aria-label": "What the link allows" },
    h("option", { value: "answer", text: "Can answer" }),
    h("option", { value: "view", text: "View only" }),
  );
  private readonly lifetime = h(
    "select",
    { "aria-label": "Link lifetime" },
    ...LIFETIMES.map(([label], i) => h("option", { value: String(i), text: label })),
  );
  private readonly label = h("input", {
    type: "text",
    class: "share-label",
    maxlength: 80,
    placeholder: "Label (optional)",
    "aria-label": "Link label",
  });
  private readonly list = h("ul", { class: "share-links", "aria-label": "Active share links" });

  constructor(private readonly route: SessionRoute) {
    const create = h("button", {
      type: "button",
      text: "Create link",
      on: { click: () => void this.create() },
    });
    const copy = h("button", { type: "button", text: "Copy", on: { click: () => void this.copy() } });
    this.field.addEventListener("focus", () => this.field.select());
    this.el = h(
      "details",
      { class: "share", hidden: true },
      h("summary", { text: "Open on another device" }),
      h("div", { class: "share-row" }, this.role, this.lifetime, this.label, create),
      h("div", { class: "share-row" }, this.field, copy, this.status),
      this.list,
    );
    this.el.addEventListener("toggle", () => {
      if (this.el.open) void this.refresh();
    });
  }

  /** Only the owner may mint and revoke links, so only the owner sees the panel. */
  setRole(role: string): void {
    this.el.hidden = role !== "owner";
  }

  private async create(): Promise<void> {
    const lifetime = LIFETIMES[Number(this.lifetime.value)]?.[1];
    try {
      const link = await mintLink(location.origin, this.route, {
        role: this.role.value === "view" ? "view" : "answer",
        ...(lifetime ? { expiresInSeconds: lifetime } : {}),
        ...(this.label.value.trim() ? { label: this.label.value.trim() } : {}),
      });
      this.field.value = link.shareUrl;
      this.label.value = "";
      this.say(link.role === "view" ? "View-only link created" : "Link created");
      await this.refresh();
    } catch (error) {
      this.say(`Could not create a link: ${(error as Error).message}`);
    }
  }

  private async copy(): Promise<void> {
    if (!this.field.value) return;
    try {
      await navigator.clipboard.writeText(this.field.value);
      this.say("Copied");
    } catch {
      // Clipboard access can be refused (no permission, insecure origin): select for a manual copy.
      this.field.focus();
      this.field.select();
      this.say("Press Ctrl+C to copy");
    }
  }

  private async refresh(): Promise<void> {
    try {
      const now = Date.now();
      const active = (await listLinks(location.origin, this.route)).filter(
        (link) => link.revokedAt === null && (link.expiresAt === null || link.expiresAt > now),
      );
      replaceChildren(this.list, ...active.map((link) => this.item(link)));
    } catch (error) {
      this.say(`Could not list links: ${(error as Error).message}`);
    }
  }

  private item(link: ShareLinkView): HTMLElement {
    const used = link.lastUsedAt ? `last used ${new Date(link.lastUsedAt).toLocaleString()}` : "not used yet";
    const expires = link.expiresAt ? `, expires ${new Date(link.expiresAt).toLocaleString()}` : "";
    const revoke = h("button", {
      type: "button",
      class: "share-revoke",
      text: "Revoke",
      on: {
        click: async () => {
          try {
            await revokeLink(location.origin, this.route, link.linkId);
            this.say("Link revoked; its devices were disconnected");
            await this.refresh();
          } catch (error) {
            this.say(`Could not revoke: ${(error as Error).message}`);
          }
        },
      },
    });
    return h(
      "li",
      { class: "share-link" },
      h("span", {
        text: `${link.label ?? "Unlabelled"} · ${ROLE_WORDS[link.role]} · ${used}${expires}`,
      }),
      revoke,
    );
  }

  private say(text: string): void {
    setText(this.status, text);
    setTimeout(() => setText(this.status, ""), 4000);
  }
}
