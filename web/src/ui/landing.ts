// The start page: one button that creates a session and opens it (asking for the gateway token
// only when the deployment requires one), and the sessions this browser opened before.

import { ApiError, createSession } from "../../../client/session-api";
import { safeLocalStorage } from "../safe-storage";
import { h, setText } from "./dom";
import { recentList } from "./recent-list";

const TOKEN_KEY = "parley.gatewayToken";

export function mountLanding(root: HTMLElement, open: (sessionId: string, token: string) => void): void {
  const message = h("p", { class: "landing-error", role: "alert" });
  const gateway = h("input", {
    type: "password",
    autocomplete: "off",
    "aria-label": "Gateway token",
    placeholder: "Gateway token",
    value: localStorage.getItem(TOKEN_KEY) ?? "",
  });
  const gatewayRow = h("label", { class: "gateway", hidden: !gateway.value }, "Gateway token ", gateway);
  const start = h("button", { type: "submit", class: "primary", text: "Start a session" });
  const form = h(
    "form",
    {
      class: "landing-form",
      on: {
        submit: async (event) => {
          event.preventDefault();
          start.disabled = true;
          setText(message, "");
          try {
            const gatewayToken = gateway.value.trim() || undefined;
            const created = await createSession(location.origin, {}, { gatewayToken });
            if (gatewayToken) localStorage.setItem(TOKEN_KEY, gatewayToken);
            open(created.sessionId, created.token);
          } catch (error) {
            const needsToken = error instanceof ApiError && (error.status === 401 || error.status === 403);
            gatewayRow.hidden = !needsToken && !gateway.value;
            setText(message, needsToken ? "This gateway needs its token to start sessions." : String(error));
            start.disabled = false;
          }
        },
      },
    },
    gatewayRow,
    start,
    message,
  );
  root.replaceChildren(
    h(
      "section",
      { class: "landing" },
      h("h1", { text: "Parley" }),
      h("p", {
        text: "Run an agent that stops to ask you — questions and tool approvals — and carries on when you answer, from any device.",
      }),
      form,
      recentList(safeLocalStorage()),
    ),
  );
}
