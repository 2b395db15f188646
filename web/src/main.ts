// Browser entry: the start page, or the session named in the URL fragment (`#/s/<id>?token=…`,
// whose token is then taken out of the address bar: route-token.ts).

import { ApiError, fetchSnapshot } from "../../client/session-api";
import { deviceId } from "./device-id";
import { safeSessionStorage, takeSessionRoute } from "./route-token";
import { safeLocalStorage } from "./safe-storage";
import { mountSession } from "./ui/app";
import { h } from "./ui/dom";
import { mountLanding } from "./ui/landing";

async function start(root: HTMLElement): Promise<void> {
  const route = takeSessionRoute(
    { hash: location.hash, replace: (hash) => history.replaceState(history.state, "", hash) },
    safeSessionStorage(),
  );
  if (!route) {
    mountLanding(root, (sessionId, token) => {
      location.hash = `#/s/${sessionId}?token=${encodeURIComponent(token)}`;
    });
    return;
  }
  try {
    // A socket refused at upgrade only says "closed"; this call names a bad link clearly first.
    await fetchSnapshot(location.origin, route.sessionId, route.token);
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      root.replaceChildren(
        h(
          "section",
          { class: "landing" },
          h("h1", { text: "This link does not open a session" }),
          h("p", { text: `${error.message} (${error.code})` }),
          h("p", {}, h("a", { href: "/", text: "Start a new session" })),
        ),
      );
      return;
    }
    // Network trouble: carry on, the socket client retries until the server answers.
  }
  mountSession(root, route, deviceId(safeLocalStorage()));
}

window.addEventListener("hashchange", () => location.reload());
void start(document.getElementById("app")!);
