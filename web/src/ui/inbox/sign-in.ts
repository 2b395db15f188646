// Signing in to a local Parley: `npm run dev` prints the page's address with a one-time code
// (`#/sign-in?code=…`). The code is taken out of the address bar at once, traded once for the
// gateway token (POST /api/sign-in), and the token kept as an operator's page keeps it.
import { ApiError, call } from "../../../../client/session-api";
import type { SignInResponse } from "../../../../src/protocol/access/sign-in";
import { h } from "../dom";
import { storedGatewayToken, storeGatewayToken } from "./landing";

interface Place {
  hash: string;
  replace(hash: string): void;
}

/** The code in a `#/sign-in?code=…` address, which is replaced by the inbox's at once; else null. */
export function takeSignInCode(place: Place): string | null {
  const match = /^#\/sign-in(?:\?(.*))?$/.exec(place.hash);
  if (!match) return null;
  place.replace("#/");
  return new URLSearchParams(match[1] ?? "").get("code") ?? "";
}

/** Trades `code` for the gateway token and keeps it; the server's refusal as a sentence, or null. */
export async function signIn(
  origin: string,
  code: string,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  try {
    const answer = await call<SignInResponse>(
      `${origin}/api/sign-in`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) },
      fetchImpl,
    );
    storeGatewayToken(answer.gatewayToken);
    return null;
  } catch (error) {
    return error instanceof ApiError ? error.message : `Could not reach Parley: ${String(error)}`;
  }
}

/** How the person signs in, for a page with no (or a refused) credential. */
export const HOW_TO_SIGN_IN =
  "Sign in to see your inbox: on the machine that runs Parley, run `npm run dev` and open the address it prints " +
  "(it signs this browser in once), or paste the GATEWAY_TOKEN from its .dev.vars (or your deployment's token) below.";

/** The page a refused sign-in address shows: why, and the way on. */
export function signInRefused(reason: string): HTMLElement {
  return h(
    "main",
    { class: "landing" },
    h("h1", { text: "This address did not sign you in" }),
    h("p", { role: "alert", text: reason }),
    storedGatewayToken()
      ? h("p", {}, h("a", { href: "/", text: "This browser is signed in already: open your inbox" }))
      : h("p", { text: HOW_TO_SIGN_IN }),
  );
}
