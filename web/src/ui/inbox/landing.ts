// The start page's "start a new session" form: one button that creates a session and opens it,
// asking for the gateway token only when the deployment requires one (then kept for the inbox too).

import { ApiError, createSession } from "../../../../client/session-api";
import { safeLocalStorage } from "../../safe-storage";
import { h, setText } from "../dom";

const TOKEN_KEY = "parley.gatewayToken";

/** The gateway token this browser was given, if any. */
export function storedGatewayToken(): string | null {
  try {
    return safeLocalStorage()?.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

export function storeGatewayToken(token: string): void {
  try {
    safeLocalStorage()?.setItem(TOKEN_KEY, token);
  } catch {
    // Blocked storage: the token is asked for again next time.
  }
}

export function startSessionForm(open: (sessionId: string, token: string) => void): HTMLElement {
  const message = h("p", { class: "landing-error", role: "alert" });
  const gateway = h("input", {
    type: "password",
    autocomplete: "off",
    placeholder: "Gateway token",
    value: storedGatewayToken() ?? "",
  });
  const gatewayRow = h("label", { class: "gateway", hidden: !gateway.value }, "Gateway token ", gateway);
  const start = h("button", { type: "submit", class: "primary", text: "Start a session" });
  return h(
    "form",
    {
      class: "landing-form",
      "aria-label": "Start a new session",
      on: {
        submit: async (event) => {
          event.preventDefault();
          start.disabled = true;
          setText(message, "");
          try {
            const gatewayToken = gateway.value.trim() || undefined;
            const created = await createSession(location.origin, {}, { gatewayToken });
            if (gatewayToken) storeGatewayToken(gatewayToken);
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
}
