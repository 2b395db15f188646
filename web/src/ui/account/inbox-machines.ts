// The inbox's Machines: the person's computers running `parley daemon`, and New session — pick a
// machine, one of the agents and folders its config offers, and the first message — and Stop for
// the sessions started here. The daemon decides; a refusal shows its reason.
import type { InboxTarget } from "../../../../client/inbox-api";
import { listMachines, startOnMachine, stopSession } from "../../../../client/machines-api";
import type { MachineView } from "../../../../src/protocol/machines/machines";
import { h } from "../dom";
import { inboxNote, sayNote } from "./inbox-note";

export class InboxMachines {
  private machines: MachineView[] = [];
  private readonly list = h("ul", { class: "record-list" });
  private readonly note = inboxNote();
  private readonly machine = h("select", { id: "machine-pick", name: "machine", required: true });
  private readonly agent = h("select", { id: "machine-agent", name: "agent", required: true });
  private readonly folder = h("select", { id: "machine-folder", name: "folder", required: true });
  private readonly text = h("textarea", { id: "machine-text", name: "text", rows: 3, required: true });
  private readonly started = h("ul", { class: "record-list machine-sessions" });
  private readonly form = h(
    "form",
    { class: "machine-start", on: { submit: (event) => void this.start(event) } },
    h("label", { for: "machine-pick", text: "Machine" }),
    this.machine,
    h("label", { for: "machine-agent", text: "Agent" }),
    this.agent,
    h("label", { for: "machine-folder", text: "Folder" }),
    this.folder,
    h("label", { for: "machine-text", text: "First message" }),
    this.text,
    h("button", { type: "submit", class: "primary", text: "New session" }),
  );
  readonly el = h(
    "section",
    { class: "inbox-machines", "aria-labelledby": "inbox-machines-heading" },
    h("h2", { id: "inbox-machines-heading", text: "Machines" }),
    this.note,
    this.list,
    this.form,
    this.started,
  );

  constructor(private readonly target: InboxTarget) {
    this.machine.addEventListener("change", () => this.fillChoices());
    this.form.hidden = true;
  }

  async refresh(): Promise<void> {
    try {
      this.machines = await listMachines(this.target);
    } catch (error) {
      sayNote(this.note, `Could not list machines: ${messageOf(error)}`, "problem");
      return;
    }
    sayNote(
      this.note,
      this.machines.length === 0 ? "No machine yet: run `parley daemon` on one." : "",
      "neutral",
    );
    this.list.replaceChildren(
      ...this.machines.map((machine) =>
        h(
          "li",
          { class: "record", "data-machine-id": machine.machineId },
          h("span", { class: "record-title", text: machine.label }),
          h("span", { class: "record-meta", text: machine.online ? "Online" : "Offline" }),
        ),
      ),
    );
    const online = this.machines.filter((machine) => machine.online);
    const chosen = this.machine.value;
    this.machine.replaceChildren(
      ...online.map((machine) => h("option", { value: machine.machineId, text: machine.label })),
    );
    if (online.some((machine) => machine.machineId === chosen)) this.machine.value = chosen;
    this.form.hidden = online.length === 0;
    this.fillChoices();
  }

  private fillChoices(): void {
    const machine = this.machines.find((one) => one.machineId === this.machine.value);
    this.agent.replaceChildren(
      ...(machine?.agents ?? []).map((a) => h("option", { value: a.name, text: a.name })),
    );
    this.folder.replaceChildren(...(machine?.folders ?? []).map((f) => h("option", { value: f, text: f })));
  }

  private async start(event: Event): Promise<void> {
    event.preventDefault();
    const button = this.form.querySelector("button") as HTMLButtonElement;
    button.disabled = true;
    const label = this.machine.selectedOptions[0]?.textContent ?? "";
    try {
      const { sessionId } = await startOnMachine(this.target, this.machine.value, {
        agent: this.agent.value,
        folder: this.folder.value,
        text: this.text.value,
      });
      this.text.value = "";
      sayNote(this.note, `Started ${this.agent.value} on ${label}.`, "neutral");
      this.started.append(
        this.startedRow(sessionId, `${this.agent.value} on ${label} in ${this.folder.value}`),
      );
    } catch (error) {
      sayNote(this.note, `Not started: ${messageOf(error)}`, "problem");
    } finally {
      button.disabled = false;
    }
  }

  private startedRow(sessionId: string, what: string): HTMLElement {
    const stop = h("button", {
      type: "button",
      class: "danger record-action",
      text: "Stop",
      "aria-label": `Stop ${what}`,
    });
    const row = h(
      "li",
      { class: "record", "data-session-id": sessionId },
      h("span", { class: "record-title", text: what }),
      stop,
    );
    stop.addEventListener("click", async () => {
      stop.disabled = true;
      try {
        await stopSession(this.target, sessionId);
        stop.replaceWith(h("span", { class: "record-meta", text: "Stopped" }));
      } catch (error) {
        sayNote(this.note, `Could not stop: ${messageOf(error)}`, "problem");
        stop.disabled = false;
      }
    });
    return row;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
