// The platforms' webhooks are the one exemption from the API's cross-site and JSON-only checks: a
// platform posts from its servers with no Origin and its own body type (Slack posts a form). Only
// `POST /api/channels/<platform>` of a known platform is exempt; the person's channel routes and
// any other path keep every check.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../../helpers/session-harness";
import { TELEGRAM_BINDINGS } from "../../helpers/telegram-api";
import { Person } from "../inbox/inbox-fixtures";

const FOREIGN = "https://api.telegram.example";

function post(path: string, headers: Record<string, string>, body: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, { method: "POST", headers, body });
}

async function errorCode(response: Response): Promise<string | undefined> {
  return ((await response.clone().json()) as { error?: { code: string } }).error?.code;
}

describe("the platform webhooks and the API's body and origin checks", () => {
  it("lets a platform's webhook through with a form body and a foreign Origin, to its signature check", async () => {
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      origin: FOREIGN,
      "x-telegram-bot-api-secret-token": "wrong-secret-token-0000000000",
    };
    const response = await post("/api/channels/telegram", headers, "payload=%7B%7D");
    // The channel object answered: the platform's own check refused the signature.
    expect(response.status).toBe(401);
  });

  it("lets Slack's form-encoded interactivity through to its signature check", async () => {
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      origin: FOREIGN,
      "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)),
      "x-slack-signature": "v0=0000",
    };
    expect((await post("/api/channels/slack", headers, "payload=%7B%7D")).status).toBe(401);
  });

  it("still answers a signed JSON update sent with no Origin", async () => {
    const headers = {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": TELEGRAM_BINDINGS.TELEGRAM_WEBHOOK_SECRET_TOKEN,
    };
    expect((await post("/api/channels/telegram", headers, JSON.stringify({ update_id: 1 }))).status).toBe(
      200,
    );
  });

  it("keeps the JSON-only and cross-origin checks on the person's channel routes and unknown platforms", async () => {
    const person = new Person("webhook.checks@example.com");
    const asPerson = async (headers: Record<string, string>, body: string) =>
      post("/api/channels/link-codes", await person.headers(headers), body);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const linkCodes = await asPerson(form, "platform=telegram");
    expect(linkCodes.status).toBe(415);
    expect(await errorCode(linkCodes)).toBe("unsupported_media_type");
    const json = JSON.stringify({ platform: "telegram" });
    const foreign = await asPerson({ "content-type": "application/json", origin: FOREIGN }, json);
    expect(foreign.status).toBe(403);
    expect(await errorCode(foreign)).toBe("cross_origin");
    const unknown = await post("/api/channels/not-a-platform", form, "payload=%7B%7D");
    expect(unknown.status).toBe(415);
  });
});
