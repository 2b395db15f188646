// `…/api/inbox/links`: the person mints, lists and revokes links to their inbox. Only the person
// in person may; an inbox link can never mint another or revoke one.
import type { Hono } from "hono";
import { LinkId } from "../../protocol/access/access";
import { type MintedInboxLink, MintInboxLinkBody } from "../../protocol/inbox/inbox-links";
import { describeZodError } from "../../protocol/wire/errors";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { signInboxLinkToken } from "../credentials/inbox-link-token";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";
import { readJsonBody } from "../read-json-body";

export function inboxLinkRoutes(routes: Hono<AppEnv>): void {
  routes.post("/links", async (c) => {
    requireInPerson(c, "mint inbox links");
    const person = personOf(c);
    const body = await readJsonBody(c, MintInboxLinkBody, { optional: true });
    const linkId = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((byte) => byte.toString(16).padStart(2, "0"))
      .join("");
    const expiresAt = body.expiresInSeconds ? Date.now() + body.expiresInSeconds * 1000 : null;
    const record = await inboxStub(c.env, person).addLink({
      linkId,
      role: body.role,
      label: body.label || null,
      expiresAt,
    });
    if (!record) throw new HttpError("too_many_links", "This inbox holds too many links; revoke some first");
    const token = await signInboxLinkToken(c.get("config").sessionSecret, {
      person,
      linkId,
      role: record.role,
      label: record.label,
      expiresAt: record.expiresAt,
    });
    const minted: MintedInboxLink = {
      ...record,
      token,
      inboxUrl: `${new URL(c.req.url).origin}/#/inbox?token=${token}`,
    };
    return c.json(minted, 201);
  });

  routes.get("/links", async (c) => {
    requireInPerson(c, "list inbox links");
    return c.json({ links: await inboxStub(c.env, personOf(c)).listLinks() });
  });

  routes.delete("/links/:linkId", async (c) => {
    requireInPerson(c, "revoke inbox links");
    const linkId = LinkId.safeParse(c.req.param("linkId"));
    if (!linkId.success) throw new HttpError("invalid_input", describeZodError(linkId.error));
    const person = personOf(c);
    const inbox = inboxStub(c.env, person);
    const revoked = await inbox.revokeLink(linkId.data);
    if (!revoked) throw new HttpError("not_found", "No such inbox link");
    // Sessions opened through the link hold a share link with its id (inbox-open-route.ts); each is
    // asked as the person, not with an owner token a rotation may have retired. A session that is
    // gone holds nothing to revoke; any other refusal fails the request (the inbox link itself
    // stays revoked, and revoking it again retries every session).
    const actor = { kind: "person", person } as const;
    const opened = await inbox.openedThrough(linkId.data);
    const outcomes = await Promise.all(
      opened.map((sessionId) =>
        sessionStub(c.env, sessionId).fromInbox(actor, { type: "revoke_opened", linkId: linkId.data }),
      ),
    );
    const failed = outcomes.find((outcome) => !outcome.ok && outcome.error.code !== "unknown_session");
    if (failed && !failed.ok) {
      throw new HttpError(
        "internal",
        `The inbox link is revoked, but a session it opened could not revoke its share link (${failed.error.message}); revoke it again to retry`,
      );
    }
    return c.json(revoked);
  });
}
