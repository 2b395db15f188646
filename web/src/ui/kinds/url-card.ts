// The URL card (MCP elicitation in URL mode): the page a server asks the person to visit, with the
// server that asks, its whole address and its host set apart (and a warning when that host is not
// the server's) so they can judge where it leads before opening it, then "I've finished" or
// Decline. Nothing opens by itself, and nothing typed there comes back here.
import { pageOf } from "../../../../src/interactions/kinds/url-view";
import type { InteractionState } from "../../session-state";
import { urlSender } from "../../url-sender";
import { AnswerableCard } from "../cards/answerable-card";
import { h } from "../dom";

export class UrlCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly finished: HTMLButtonElement;
  private readonly decliner: HTMLButtonElement;
  private readonly controls: HTMLElement;
  private readonly link: HTMLAnchorElement | null;

  constructor(interaction: InteractionState) {
    super();
    const page = pageOf(interaction.request);
    const message = page?.message || "The tool asks you to open a page";
    this.link = page
      ? h("a", {
          class: "button primary url-open",
          href: page.url,
          target: "_blank",
          rel: "noopener noreferrer",
          text: `Open ${page.host}`,
        })
      : null;
    this.finished = h("button", {
      type: "button",
      class: page ? undefined : "primary",
      text: "I've finished",
      disabled: !page,
      on: { click: () => this.finish() },
    });
    this.decliner = h("button", {
      type: "button",
      class: "danger",
      text: "Decline",
      on: { click: () => this.decline() },
    });
    this.controls = h("div", { class: "card-actions" }, this.link, this.finished, this.decliner, this.line);
    this.el = h(
      "section",
      {
        role: "group",
        class: "card url-card",
        tabindex: "0",
        "aria-label": `A page to visit for the agent: ${message}`,
      },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title", text: message }),
        this.countdown.el,
      ),
      page ? senderLine(interaction.request, page.host) : null,
      page
        ? h(
            "p",
            { class: "url-address" },
            h("span", { class: "url-host", text: page.host }),
            h("code", { class: "url-full", text: page.url }),
          )
        : h("p", { class: "hint", text: "The address it sent cannot be opened here." }),
      this.controls,
      this.receipt,
    );
    this.listenForKeys();
  }

  private finish(): void {
    void this.respond({ action: "accept" });
  }

  private decline(): void {
    void this.respond({ action: "decline" });
  }

  protected lockControls(locked: boolean): void {
    this.finished.disabled = locked || !this.link;
    this.decliner.disabled = locked;
    this.link?.toggleAttribute("aria-disabled", locked);
    this.link?.classList.toggle("disabled", locked);
  }

  protected collapse(): void {
    this.controls.remove();
  }

  /** Esc declines; Enter (not on a button or the link, which act themselves) says it is done. */
  protected handleCardKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Escape") {
      this.decline();
      return true;
    }
    if (event.key !== "Enter" || !this.link) return false;
    if (event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement) return false;
    this.finish();
    return true;
  }
}

/** "Sent by MCP server …", and a warning when the page is not on that server's host. */
function senderLine(request: unknown, pageHost: string): HTMLElement | null {
  const sender = urlSender(request, pageHost);
  if (!sender) return null;
  return h(
    "div",
    { class: "url-from" },
    h("p", {}, "Sent by MCP server ", h("strong", { text: sender.server }), ` (${sender.host})`),
    sender.elsewhere
      ? h("p", {
          class: "url-elsewhere",
          role: "note",
          text: `This page is on ${pageHost}, not on ${sender.host} where the server runs: open it only if you expected to go there.`,
        })
      : null,
  );
}
