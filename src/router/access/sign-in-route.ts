// `POST /api/sign-in`: the page of a local Parley trades the one-time code `npm run dev` printed for
// the gateway token, which it keeps as an operator's page does. A code is spent in the operator's
// inbox object, so the address works once, even if it stays in a terminal's scrollback.
import { Hono } from "hono";
import { logSecurityEvent } from "../../log/security-log";
import { OPERATOR } from "../../protocol/access/people";
import { SignInBody, type SignInResponse } from "../../protocol/access/sign-in";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import type { AppEnv } from "../app-env";
import { checkSignInCode } from "../credentials/sign-in-code";
import { HttpError } from "../http-error";
import { readJsonBody } from "../read-json-body";

export const signInRoutes = new Hono<AppEnv>();

signInRoutes.post("/", async (c) => {
  const config = c.get("config");
  // Behind Access the person signs in with Access; without a token there is no one to sign in as.
  if (config.access || !config.gatewayToken) {
    throw new HttpError(
      "not_found",
      "This gateway has no sign-in code: it uses Cloudflare Access or no credential",
    );
  }
  const { code } = await readJsonBody(c, SignInBody);
  const checked = await checkSignInCode(config.sessionSecret, code, Date.now());
  if (!checked) {
    logSecurityEvent("credential_refused", { reason: "sign_in_code" });
    throw new HttpError(
      "forbidden",
      "This sign-in address is not valid or has expired; run `npm run dev` again for a new one",
    );
  }
  if (!(await inboxStub(c.env, OPERATOR).spendSignInCode(checked.id, checked.expiresAt))) {
    logSecurityEvent("credential_refused", { reason: "sign_in_code_spent" });
    throw new HttpError(
      "forbidden",
      "This sign-in address was already used; run `npm run dev` again for a new one",
    );
  }
  const answer: SignInResponse = { gatewayToken: config.gatewayToken };
  return c.json(answer);
});
