// The page an invite URL opens (`#/join?invite=…`): the invite is taken out of the address bar and
// redeemed only when the invitee presses Accept (a POST, never on opening, since link previews open
// URLs); then this browser keeps its approver credential and shows the inviter's cards.
import { keepApprover } from "../../approver-credentials";
import { redeemInvite } from "../../people-api";
import { h, setText } from "../dom";

interface Place {
  hash: string;
  replace(hash: string): void;
}

/** The invite in `#/join?invite=…`, taken out of the address bar; null for any other address. */
export function takeInvite(place: Place): string | null {
  const match = /^#\/join\?(.*)$/.exec(place.hash);
  const invite = match ? new URLSearchParams(match[1] ?? "").get("invite") : null;
  if (invite) place.replace("#/join");
  return invite;
}

export function mountJoin(root: HTMLElement, invite: string): void {
  const alert = h("p", { class: "inbox-alert", role: "alert" });
  const accept = h("button", { type: "button", class: "primary", text: "Accept" });
  accept.addEventListener("click", async () => {
    accept.disabled = true;
    try {
      const redeemed = await redeemInvite(invite);
      keepApprover({ inviter: redeemed.inviter, name: redeemed.name, credential: redeemed.credential });
      location.hash = "#/inbox";
    } catch (error) {
      setText(alert, `This invite did not work: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  root.replaceChildren(
    h(
      "main",
      { class: "landing" },
      h("h1", { text: "You are invited to answer cards" }),
      h("p", {
        text: "Someone asks you to approve or deny their agents' requests from your own inbox. Accept to see them here.",
      }),
      accept,
      alert,
    ),
  );
}
