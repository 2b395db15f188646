// Browser entry: the person's inbox (`#/`, `#/sign-in?code=…` as `npm run dev` prints it, or
// `#/inbox?token=…` opened with an inbox link), or the session named in the URL fragment
// (`#/s/<id>?token=…`); tokens and codes are taken out of the address bar.

import { ApiError, fetchSnapshot } from "../../client/session-api";
import { registerShell } from "./app-shell";
import { deviceId } from "./device-id";
import { safeSessionStorage, takeSessionRoute } from "./route-token";
import { safeLocalStorage } from "./safe-storage";
import { mountSession } from "./ui/app";
import { h } from "./ui/dom";
import { takeInboxRoute } from "./ui/inbox/inbox-route";
import { signIn, signInRefused, takeSignInCode } from "./ui/inbox/sign-in";
import { mountInbox } from "./ui/inbox-page";
import { mountJoin, takeInvite } from "./ui/people/join-page";

async function start(root: HTMLElement): Promise<void> {
  const place = {
    hash: location.hash,
    replace: (hash: string) => history.replaceState(history.state, "", hash),
  };
  // The address `npm run dev` prints: signs this browser in, then opens the inbox.
  const code = takeSignInCode(place);
  if (code !== null) {
    const refused = await signIn(location.origin, code);
    if (refused) {
      root.replaceChildren(signInRefused(refused));
      return;
    }
    mountInbox(root, { linkToken: null });
    return;
  }
  // An invite to answer someone's cards: redeemed only when the invitee accepts.
  const invite = takeInvite(place);
  if (invite) {
    mountJoin(root, invite);
    return;
  }
  const inbox = takeInboxRoute(place, safeLocalStorage());
  if (inbox) {
    mountInbox(root, inbox);
    return;
  }
  const route = takeSessionRoute(place, safeSessionStorage());
  if (!route) {
    mountInbox(root, { linkToken: null });
    return;
  }
  try {
    // A socket refused at upgrade only says "closed"; this call names a bad link clearly first.
    await fetchSnapshot(location.origin, route.sessionId, route.token);
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      root.replaceChildren(
        h(
          "main",
          { class: "landing" },
          h("h1", { text: "This link does not open a session" }),
          h("p", { text: `${error.message} (${error.code})` }),
          h("p", {}, h("a", { href: "/", text: "Back to your inbox" })),
        ),
      );
      return;
    }
    // Network trouble: carry on, the socket client retries until the server answers.
  }
  mountSession(root, route, deviceId(safeLocalStorage()));
}

window.addEventListener("hashchange", () => location.reload());
registerShell();
void start(document.getElementById("app")!);
