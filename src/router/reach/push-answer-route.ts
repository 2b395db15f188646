// `POST /api/push/answer`: a notification's Approve or Deny, sent by the service worker with no page
// open. The answer token is the capability (no other credential rides in a service worker's
// request): checked here, then spent once by the card's session, where the answer enters as the
// person's from device `push`.
import { Hono } from "hono";
import { logSecurityEvent } from "../../log/security-log";
import { PushAnswerBody, type PushAnswerResponse } from "../../protocol/reach/push-answer";
import { sessionStub } from "../../session/session-rpc";
import { checkPushAnswerToken } from "../../tokens/push-answer-token";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { readJsonBody } from "../read-json-body";

export const pushAnswerRoutes = new Hono<AppEnv>();

pushAnswerRoutes.post("/answer", async (c) => {
  const { token, decision } = await readJsonBody(c, PushAnswerBody);
  const checked = await checkPushAnswerToken(c.get("config").sessionSecret, token, Date.now());
  if (!checked.ok) {
    logSecurityEvent("credential_refused", { reason: `push_answer_${checked.reason}` });
    throw new HttpError(
      "forbidden",
      checked.reason === "expired"
        ? "This notification's answer expired with its card's deadline"
        : "Unknown answer token",
    );
  }
  const { claims } = checked;
  if (!claims.decisions.includes(decision)) {
    throw new HttpError("forbidden", `This notification's answer cannot ${decision}`);
  }
  const outcome = await sessionStub(c.env, claims.sessionId).fromInbox(
    { kind: "push", person: claims.person },
    {
      type: "push_answer",
      answer: {
        interactionId: claims.interactionId,
        decision,
        nonce: claims.nonce,
        expiresAt: claims.expiresAt,
      },
    },
  );
  if (!outcome.ok) {
    logSecurityEvent("credential_refused", {
      sessionId: claims.sessionId,
      reason: `push_answer_${outcome.error.code}`,
    });
    throw HttpError.from(outcome.error);
  }
  const response: PushAnswerResponse = {
    ok: true,
    outcome: decision === "approve" ? "approved" : "denied",
    sessionId: claims.sessionId,
    interactionId: claims.interactionId,
  };
  return c.json(response);
});
