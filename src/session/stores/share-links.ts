// The session's share links as the object keeps them (one JSON row in `meta`, at most
// MAX_SHARE_LINKS): minted, listed with when each was last used, revoked, and checked on every use;
// and the owner token's current version (a `meta` row), checked the same way.
import * as z from "zod";
import type { MetaStore } from "../../objects/meta-store";
import {
  type Access,
  LinkId,
  MAX_LINK_LABEL_CHARS,
  OwnerVersion,
  ShareLinkView,
} from "../../protocol/access/access";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAX_SHARE_LINKS } from "../../protocol/limits";
import type { ErrorBody } from "../../protocol/wire/errors";

// Stored exactly as the owner sees them in the list.
const StoredLinks = lazySchema(() => z.array(ShareLinkView));
// Which link each webhook's notices carry, by webhook URL.
const WebhookLinks = lazySchema(() => z.record(z.string(), LinkId));

// "Last used" is for people reading a list, so it is written at most this often per link.
const LAST_USED_RESOLUTION_MS = 60_000;

export class ShareLinks {
  constructor(
    private readonly meta: MetaStore,
    private readonly now: () => number,
  ) {}

  list(): ShareLinkView[] {
    return this.meta.get("share_links", StoredLinks) ?? [];
  }

  /** Records a link the Worker is about to sign; false when the session holds too many. */
  add(link: Omit<ShareLinkView, "createdAt" | "lastUsedAt" | "revokedAt">): ShareLinkView | null {
    const links = this.list();
    if (links.length >= MAX_SHARE_LINKS) return null;
    const record: ShareLinkView = { ...link, createdAt: this.now(), lastUsedAt: null, revokedAt: null };
    this.meta.set("share_links", [...links, record]);
    return record;
  }

  /**
   * The answer link webhook `webhookUrl`'s notices carry, minted (with id `newId()`) on first use
   * and listed with the others. Revoking it is final: later notices carry the same, dead link.
   * Null when the session holds too many links to mint one.
   */
  webhookLink(webhookUrl: string, newId: () => string): ShareLinkView | null {
    const minted = this.meta.get("webhook_links", WebhookLinks) ?? {};
    const known = minted[webhookUrl];
    if (known !== undefined) return this.list().find((link) => link.linkId === known) ?? null;
    // The host alone: a webhook's path often holds its own secret (Slack's does), and a label is
    // shown to everyone who sees an answer the link gave.
    const label = `Webhook ${new URL(webhookUrl).host}`.slice(0, MAX_LINK_LABEL_CHARS);
    const link = this.add({ linkId: newId(), role: "answer", label, expiresAt: null });
    if (link) this.meta.set("webhook_links", { ...minted, [webhookUrl]: link.linkId });
    return link;
  }

  /** Marks a link revoked; null when there is no such link, the record otherwise (idempotent). */
  revoke(linkId: string): ShareLinkView | null {
    const links = this.list();
    const link = links.find((candidate) => candidate.linkId === linkId);
    if (!link) return null;
    if (link.revokedAt === null) {
      link.revokedAt = this.now();
      this.meta.set("share_links", links);
    }
    return link;
  }

  /**
   * The next expiry of a live (unrevoked) link still to be enforced, so the alarm can close that
   * link's sockets when it comes; null when none is ahead.
   */
  nextExpiry(): number | null {
    const enforced = this.meta.number("share_links_expired_until") ?? 0;
    const ahead = this.list()
      .filter((link) => link.revokedAt === null && link.expiresAt !== null && link.expiresAt > enforced)
      .map((link) => link.expiresAt as number);
    return ahead.length > 0 ? Math.min(...ahead) : null;
  }

  /** Links that expired by `now` and were not yet enforced; marks them enforced. */
  takeExpired(now: number): ShareLinkView[] {
    const enforced = this.meta.number("share_links_expired_until") ?? 0;
    const expired = this.list().filter(
      (link) =>
        link.revokedAt === null &&
        link.expiresAt !== null &&
        link.expiresAt > enforced &&
        link.expiresAt <= now,
    );
    if (expired.length > 0) this.meta.set("share_links_expired_until", now);
    return expired;
  }

  /** The owner token's current version (1 until the first rotation). */
  ownerVersion(): number {
    return this.meta.get("owner_token_version", OwnerVersion) ?? 1;
  }

  /** Retires the current owner token; returns the new version to sign. */
  rotateOwner(): number {
    const next = this.ownerVersion() + 1;
    this.meta.set("owner_token_version", next);
    return next;
  }

  /** Whether link `linkId` is known, unrevoked and unexpired (without noting a use). */
  isLive(linkId: string): boolean {
    const link = this.list().find((candidate) => candidate.linkId === linkId);
    return !!link && link.revokedAt === null && (link.expiresAt === null || link.expiresAt > this.now());
  }

  /**
   * Whether `access` may still be used: the owner always; a link only while the object knows it
   * and it is neither revoked nor expired. Notes the use for the owner's list.
   */
  admit(access: Access): ErrorBody | null {
    if (access.linkId === null) {
      if ((access.ownerVersion ?? 1) === this.ownerVersion()) return null;
      return { code: "link_revoked", message: "This owner token was replaced by a newer one (rotated)" };
    }
    const links = this.list();
    const link = links.find((candidate) => candidate.linkId === access.linkId);
    const now = this.now();
    if (!link || link.revokedAt !== null) {
      return { code: "link_revoked", message: "This share link was revoked by the session's owner" };
    }
    if (link.expiresAt !== null && link.expiresAt <= now) {
      return { code: "link_expired", message: "This share link has expired" };
    }
    if (link.lastUsedAt === null || now - link.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      link.lastUsedAt = now;
      this.meta.set("share_links", links);
    }
    return null;
  }
}
