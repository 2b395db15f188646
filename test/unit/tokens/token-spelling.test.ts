import { describe, expect, it } from "vitest";
import { checkInboxLinkToken, signInboxLinkToken } from "../../../src/router/credentials/inbox-link-token";
import { fromBase64Url, toBase64Url } from "../../../src/tokens/base64url";
import { signSessionToken, verifySessionToken } from "../../../src/tokens/session-token";
import { checkAccessToken, signShareToken } from "../../../src/tokens/share-token";

const SECRET = "a-test-secret-of-enough-length-for-hmac";
const SESSION = "0123456789abcdef0123456789abcdef";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * `text` with its last character changed in the bits no byte uses: 32 bytes take 43 characters,
 * whose last one carries 4 bits of data and 2 spare ones. It decodes to the same bytes.
 */
function respelled(text: string): string {
  const last = ALPHABET.indexOf(text.at(-1) ?? "");
  return text.slice(0, -1) + ALPHABET[last ^ 1];
}

describe("base64url in one spelling", () => {
  it("refuses a spelling whose spare bits are set, though lenient decoders read the same bytes", () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const text = toBase64Url(bytes);
    expect(fromBase64Url(text)).toEqual(bytes);
    const other = respelled(text);
    expect(atob(other.replaceAll("-", "+").replaceAll("_", "/"))).toBe(
      atob(text.replaceAll("-", "+").replaceAll("_", "/")),
    );
    expect(fromBase64Url(other)).toBeNull();
  });
});

describe("a token accepted in only one spelling", () => {
  it("refuses an owner token re-spelled in its last character, first and rotated versions alike", async () => {
    for (const version of [1, 3]) {
      const token = await signSessionToken(SECRET, SESSION, version);
      expect(await verifySessionToken(SECRET, SESSION, token)).toBe(version);
      expect(await verifySessionToken(SECRET, SESSION, respelled(token))).toBeNull();
    }
  });

  it("refuses a share link token whose signature is re-spelled", async () => {
    const token = await signShareToken(SECRET, SESSION, {
      linkId: "a".repeat(32),
      role: "view",
      expiresAt: null,
    });
    expect((await checkAccessToken(SECRET, SESSION, token, Date.now())).ok).toBe(true);
    expect(await checkAccessToken(SECRET, SESSION, respelled(token), Date.now())).toEqual({
      ok: false,
      reason: "wrong",
    });
  });

  it("refuses an inbox link token whose signature is re-spelled", async () => {
    const token = await signInboxLinkToken(SECRET, {
      person: "ana@example.com",
      linkId: "b".repeat(32),
      role: "answer",
      label: "phone",
      expiresAt: null,
    });
    expect((await checkInboxLinkToken(SECRET, token, Date.now())).ok).toBe(true);
    expect(await checkInboxLinkToken(SECRET, respelled(token), Date.now())).toEqual({
      ok: false,
      reason: "wrong",
    });
  });
});
