// Refuses what a page of another site can make a browser send with the person's ambient authority
// (an Access cookie, a loopback address): WebSocket upgrades and writes from a foreign Origin, any
// `Sec-Fetch-Site: cross-site` request, and bodies that are not declared JSON (a no-cors form or
// `text/plain` POST needs no preflight). Clients that send no Origin (the CLI, bridges, curl) pass.
import { createMiddleware } from "hono/factory";
import { logSecurityEvent } from "../../log/security-log";
import { ChatPlatform } from "../../protocol/reach/channels";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// The one exemption: each chat platform's webhook (`POST /api/channels/<platform>`). The platform
// calls it from its servers with no Origin and its own body type (Slack posts a form), and it
// carries no ambient authority to abuse: the channel object verifies the platform's signature.
const PLATFORM_WEBHOOKS = new Set(ChatPlatform.options.map((platform) => `/api/channels/${platform}`));

export const refuseCrossSite = createMiddleware<AppEnv>(async (c, next) => {
  const request = c.req.raw;
  if (request.method === "POST" && PLATFORM_WEBHOOKS.has(c.req.path)) return next();
  // A chat's See all link is opened from the chat app's page (cross-site); its code is the only authority.
  if (request.method === "GET" && c.req.path.startsWith("/api/channels/see/")) return next();
  // A card's email link posts its Approve or Deny as a form from the page its GET shows; its signed,
  // single-use token is the only authority (src/router/reach/email-routes.ts).
  if (request.method === "POST" && c.req.path.startsWith("/api/email/cards/")) return next();
  const upgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
  const origin = request.headers.get("origin");
  const own = new URL(request.url).origin;
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    throw refused("Requests from another site's page are refused (Sec-Fetch-Site: cross-site)");
  }
  if ((upgrade || !SAFE_METHODS.has(request.method)) && origin !== null && origin !== own) {
    throw refused(
      `Requests from ${origin.slice(0, 100)} are refused; this API serves ${own} and clients without an Origin`,
    );
  }
  if (!SAFE_METHODS.has(request.method)) requireJsonBody(request);
  await next();
});

function refused(message: string): HttpError {
  logSecurityEvent("cross_origin_refused", { reason: "cross_origin", status: 403 });
  return new HttpError("cross_origin", message);
}

/** A write with a body must declare it JSON: the only type a page cannot send without a preflight. */
function requireJsonBody(request: Request): void {
  const declared = request.headers.get("content-type");
  if (declared !== null) {
    const mediaType = declared.split(";")[0]?.trim().toLowerCase();
    if (mediaType === "application/json") return;
    throw new HttpError(
      "unsupported_media_type",
      `Content-Type ${declared.slice(0, 100)} is not accepted; send the body as application/json`,
    );
  }
  const length = request.headers.get("content-length");
  const hasBody = length !== null ? Number(length) > 0 : request.body !== null;
  if (hasBody) {
    throw new HttpError("unsupported_media_type", "A request body needs Content-Type: application/json");
  }
}
