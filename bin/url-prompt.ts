// A URL request in a terminal: the page's whole address and host, to open in any browser, then
// "done" once finished there (or !decline / !cancel). Nothing is opened for the person.
import { pageOf } from "../src/interactions/kinds/url-view";
import type { Card, CardPrompt, Reply } from "./card-prompt";

export class UrlPrompt implements CardPrompt {
  constructor(
    private readonly card: Card,
    private readonly page: { message: string; url: string; host: string },
  ) {}

  start(): Reply {
    return this.ask([
      `↗ ${this.page.message || "A page to visit"}`,
      `  Open on ${this.page.host}: ${this.page.url}`,
    ]);
  }

  input(line: string): Reply {
    const text = line.trim().toLowerCase();
    if (text === "done") return this.send("accept");
    if (text === "!decline") return this.send("decline");
    if (text === "!cancel") return this.send("cancel");
    return this.ask([`  Type done once you have finished on ${this.page.host}.`]);
  }

  private ask(lines: string[]): Reply {
    return { kind: "ask", lines, prompt: "done, !decline or !cancel: " };
  }

  private send(action: "accept" | "decline" | "cancel"): Reply {
    const target = this.card.interactionId
      ? { interactionId: this.card.interactionId }
      : { toolCallId: this.card.toolCallId };
    return { kind: "send", command: { type: "respond", ...target, response: { action } } };
  }
}

/** The prompt for a URL card, or `null` when its address cannot be opened (the page says why). */
export function urlPrompt(card: Card): UrlPrompt | null {
  const page = pageOf(card.request);
  return page ? new UrlPrompt(card, page) : null;
}
