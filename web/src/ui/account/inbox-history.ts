// The inbox's History: the person's decision record, newest pages on demand, filtered by session or
// tool, each record opening its session while it exists; exported as CSV or JSON.
import { exportDecisions, fetchDecisions } from "../../../../client/grants-api";
import type { InboxTarget } from "../../../../client/inbox-api";
import type { Decider } from "../../../../src/protocol/cards/decider";
import type { DecisionRecord } from "../../../../src/protocol/inbox/decisions";
import { h } from "../dom";
import { inboxNote, sayNote } from "./inbox-note";

const PAGE = 50;

/** Who decided, as History shows it: the answerer and the kind of device, or what decided instead. */
function who(by: Decider): string {
  const device = by.device ? ` (${by.device})` : "";
  switch (by.kind) {
    case "person":
      return `${by.label ?? "You"}${device}`;
    case "link":
      return `${by.label ?? "A link"}${device}`;
    case "chat":
      return `${by.label ?? "A chat account"}${device}`;
    case "grant":
      return `Grant ${by.label ?? by.id ?? ""}`.trimEnd();
    case "deadline":
      return "The deadline";
    case "policy":
      return "The deadline policy";
    case "withdrawal":
      return `Withdrawn by ${by.label ?? "the agent"}`;
    case "system":
      return "The session";
  }
}

export class InboxHistory {
  private readonly list = h("ul", { class: "record-list" });
  private readonly note = inboxNote();
  private readonly tool = h("input", {
    type: "text",
    id: "history-tool",
    autocomplete: "off",
    maxlength: "256",
  });
  private readonly session = h("input", {
    type: "text",
    id: "history-session",
    autocomplete: "off",
    maxlength: "64",
  });
  private readonly more = h("button", { type: "button", text: "Load more", hidden: true });
  private next: number | null = null;
  readonly el: HTMLElement;

  constructor(
    private readonly target: InboxTarget,
    private readonly open: (sessionId: string, button: HTMLButtonElement) => void,
  ) {
    const filter = h(
      "form",
      {
        class: "history-filter",
        on: {
          submit: (event) => {
            event.preventDefault();
            void this.refresh();
          },
        },
      },
      h("label", { for: this.tool.id, text: "Tool" }),
      this.tool,
      h("label", { for: this.session.id, text: "Session" }),
      this.session,
      h("button", { type: "submit", text: "Filter" }),
    );
    const download = (format: "csv" | "json") =>
      h("button", {
        type: "button",
        text: `Export ${format.toUpperCase()}`,
        on: { click: () => void this.download(format) },
      });
    this.more.addEventListener("click", () => void this.load(false));
    this.el = h(
      "section",
      { class: "inbox-history", "aria-labelledby": "inbox-history-heading" },
      h("h2", { id: "inbox-history-heading", text: "History" }),
      filter,
      h("div", { class: "card-actions" }, download("csv"), download("json")),
      this.note,
      this.list,
      this.more,
    );
  }

  refresh(): Promise<void> {
    return this.load(true);
  }

  private async load(fresh: boolean): Promise<void> {
    try {
      const page = await fetchDecisions(this.target, {
        after: fresh ? 0 : (this.next ?? 0),
        limit: PAGE,
        tool: this.tool.value.trim(),
        session: this.session.value.trim(),
      });
      const rows = page.decisions.map((record) => this.row(record));
      if (fresh) this.list.replaceChildren(...rows);
      else this.list.append(...rows);
      this.next = page.next;
      this.more.hidden = page.next === null;
      sayNote(this.note, this.list.childElementCount === 0 ? "No decisions recorded yet." : "", "neutral");
    } catch (error) {
      sayNote(
        this.note,
        `Could not load the history: ${error instanceof Error ? error.message : String(error)}`,
        "problem",
      );
    }
  }

  private async download(format: "csv" | "json"): Promise<void> {
    try {
      const blob = await exportDecisions(this.target, format);
      const link = h("a", { href: URL.createObjectURL(blob), download: `parley-decisions.${format}` });
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      sayNote(
        this.note,
        `Could not export: ${error instanceof Error ? error.message : String(error)}`,
        "problem",
      );
    }
  }

  private row(record: DecisionRecord): HTMLElement {
    const open = record.sessionExists
      ? h("button", {
          type: "button",
          class: "record-action",
          text: "Open session",
          "aria-label": `Open session of decision ${record.decisionId} (${record.toolName})`,
        })
      : h("span", { class: "record-meta", text: "Session deleted" });
    if (open instanceof HTMLButtonElement)
      open.addEventListener("click", () => this.open(record.sessionId, open));
    return h(
      "li",
      { class: "record", "data-decision-id": String(record.decisionId), "data-outcome": record.outcome },
      h("span", { class: "chip", text: record.outcome.replace("_", " ") }),
      h("code", { class: "record-title", text: record.toolName }),
      h("span", { class: "record-meta", text: record.agent }),
      h("span", { class: "record-meta", text: who(record.decidedBy) }),
      h("span", {
        class: "record-meta",
        text: new Date(record.at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
      }),
      open,
    );
  }
}
