// The inbox's People: the person invites someone to answer their cards (the invite's URL shown
// once, to hand over), and sees and removes their approvers and the invites still waiting.
import type { ApproverView, InviteView, PeopleScope } from "../../../../src/people/people-terms";
import { invitePerson, listPeople, removePerson } from "../../people-api";
import { h, setText } from "../dom";

function scopeWords(scope: PeopleScope): string {
  if (scope.scope === "all") return "all cards";
  return scope.scope === "agent" ? `agent ${scope.agent}` : `calls ${scope.rule} covers`;
}

export class PeopleSection {
  private readonly list = h("ul", { class: "record-list" });
  private readonly empty = h("p", { class: "hint", text: "Nobody else answers your cards." });
  private readonly note = h("p", { class: "inbox-alert", role: "status" });
  private readonly shown = h("div", { class: "people-invite-url", hidden: true });
  private readonly name = h("input", {
    id: "people-name",
    required: true,
    maxlength: "80",
    autocomplete: "off",
  });
  private readonly email = h("input", { id: "people-email", type: "email", autocomplete: "off" });
  private readonly scope = h(
    "select",
    { id: "people-scope" },
    h("option", { value: "all", text: "All my cards" }),
    h("option", { value: "agent", text: "One agent's cards" }),
    h("option", { value: "rule", text: "Calls a rule covers" }),
  );
  private readonly detail = h("input", {
    id: "people-detail",
    autocomplete: "off",
    placeholder: "Bash(git push:*)",
  });
  readonly el: HTMLElement;

  constructor(private readonly credential: string | null) {
    const form = h(
      "form",
      { class: "people-form", "aria-label": "Invite someone" },
      h("label", { for: "people-name", text: "Name" }),
      this.name,
      h("label", { for: "people-email", text: "Email (behind Cloudflare Access)" }),
      this.email,
      h("label", { for: "people-scope", text: "May answer" }),
      this.scope,
      h("label", { for: "people-detail", text: "Agent or rule" }),
      this.detail,
      h("button", { type: "submit", class: "primary", text: "Invite" }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.invite();
    });
    this.el = h(
      "section",
      { class: "inbox-people", "aria-labelledby": "inbox-people-heading" },
      h("h2", { id: "inbox-people-heading", text: "People" }),
      h("p", { class: "hint", text: "Invite someone to approve or deny your cards from their own inbox." }),
      form,
      this.shown,
      this.note,
      this.empty,
      this.list,
    );
  }

  private async invite(): Promise<void> {
    const scope = this.scope.value;
    const detail = this.detail.value.trim();
    const body = {
      name: this.name.value.trim(),
      scope,
      ...(scope === "agent" ? { agent: detail } : scope === "rule" ? { rule: detail } : {}),
      ...(this.email.value.trim() ? { email: this.email.value.trim() } : {}),
    };
    try {
      const invited = await invitePerson(this.credential, body);
      const url = h("input", {
        readonly: true,
        value: invited.url,
        "aria-label": "Invite URL",
        class: "people-url",
      });
      // Shown once: the list never shows it again, so it is handed over now or invited anew.
      this.shown.replaceChildren(h("p", { text: "Send this address to them; it works once:" }), url);
      this.shown.hidden = false;
      setText(this.note, "");
      await this.refresh();
    } catch (error) {
      setText(this.note, `Could not invite: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async refresh(): Promise<void> {
    try {
      const people = await listPeople(this.credential);
      this.empty.hidden = people.approvers.length + people.invites.length > 0;
      this.list.replaceChildren(
        ...people.approvers.map((approver) => this.row(approver, approver.personId, "answers")),
        ...people.invites.map((invite) => this.row(invite, invite.inviteId, "invited, not yet accepted")),
      );
    } catch (error) {
      setText(this.note, `Could not list people: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private row(person: ApproverView | InviteView, id: string, state: string): HTMLElement {
    const remove = h("button", {
      type: "button",
      class: "danger record-action",
      text: "Remove",
      "aria-label": `Remove ${person.name}`,
    });
    remove.addEventListener("click", async () => {
      remove.disabled = true;
      try {
        await removePerson(this.credential, id);
        await this.refresh();
      } catch (error) {
        remove.disabled = false;
        setText(this.note, `Could not remove: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return h(
      "li",
      { class: "record", "data-person": id },
      h("span", { text: `${person.name} ${state}: ${scopeWords(person.scope)}` }),
      remove,
    );
  }
}
