// `npm run dev` keeps a random SESSION_SECRET and GATEWAY_TOKEN of the checkout's own in `.dev.vars`:
// written on the first run, never replaced after, and never a constant; test servers keep theirs
// with their state.

import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ensureGatewayToken,
  ensureSessionSecret,
  ensureVapidKeys,
  readDevVar,
  stateGatewayToken,
  stateSessionSecret,
} from "../../scripts/dev-secret.mjs";

const scratch = mkdtempSync(path.join(tmpdir(), "parley-dev-secret-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const secretIn = (file: string) => /^SESSION_SECRET=(.+)$/m.exec(readFileSync(file, "utf8"))?.[1];

describe("the local development signing key", () => {
  it("is written on the first run as 32 random bytes, readable by its owner only, and kept after", () => {
    const file = path.join(scratch, "first.dev.vars");
    expect(ensureSessionSecret(file)).toEqual({ written: true });
    const secret = secretIn(file);
    expect(Buffer.from(secret ?? "", "base64")).toHaveLength(32);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(ensureSessionSecret(file)).toEqual({ written: false });
    expect(secretIn(file)).toBe(secret);
  });

  it("differs between checkouts", () => {
    const one = path.join(scratch, "one.dev.vars");
    const two = path.join(scratch, "two.dev.vars");
    ensureSessionSecret(one);
    ensureSessionSecret(two);
    expect(secretIn(one)).not.toBe(secretIn(two));
  });

  it("is added beside the developer's other variables and leaves their own secret alone", () => {
    const others = path.join(scratch, "others.dev.vars");
    writeFileSync(others, "ANTHROPIC_API_KEY=sk-local");
    ensureSessionSecret(others);
    expect(readFileSync(others, "utf8")).toMatch(/^ANTHROPIC_API_KEY=sk-local\nSESSION_SECRET=\S+\n$/);
    const own = path.join(scratch, "own.dev.vars");
    writeFileSync(own, "SESSION_SECRET=my-own-secret-that-is-at-least-32-bytes\n");
    expect(ensureSessionSecret(own)).toEqual({ written: false });
    expect(secretIn(own)).toBe("my-own-secret-that-is-at-least-32-bytes");
  });

  it("for a test server is kept with its state, so a restart on the same state keeps it", () => {
    const state = mkdtempSync(path.join(scratch, "state-"));
    const first = stateSessionSecret(state);
    expect(stateSessionSecret(state)).toBe(first);
    expect(stateSessionSecret(mkdtempSync(path.join(scratch, "state-")))).not.toBe(first);
  });

  it("for a test server whose state directory does not exist yet, makes it and keeps the secret there", () => {
    const state = path.join(mkdtempSync(path.join(scratch, "state-")), "not-yet", "state");
    const first = stateSessionSecret(state);
    expect(readFileSync(path.join(state, "session-secret"), "utf8")).toBe(first);
  });
});

describe("the local person's credential", () => {
  it("is written beside the signing key on the first run, 32 random bytes, and kept after", () => {
    const file = path.join(scratch, "person.dev.vars");
    ensureSessionSecret(file);
    expect(ensureGatewayToken(file)).toEqual({ written: true });
    const token = readDevVar(file, "GATEWAY_TOKEN");
    expect(Buffer.from(token ?? "", "base64url")).toHaveLength(32);
    expect(token).not.toBe(readDevVar(file, "SESSION_SECRET"));
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(ensureGatewayToken(file)).toEqual({ written: false });
    expect(readDevVar(file, "GATEWAY_TOKEN")).toBe(token);
    const other = path.join(scratch, "other-person.dev.vars");
    ensureGatewayToken(other);
    expect(readDevVar(other, "GATEWAY_TOKEN")).not.toBe(token);
  });

  it("leaves the developer's own token alone, quoted or not", () => {
    const own = path.join(scratch, "own-token.dev.vars");
    writeFileSync(own, 'GATEWAY_TOKEN="my own token"\n');
    expect(ensureGatewayToken(own)).toEqual({ written: false });
    expect(readDevVar(own, "GATEWAY_TOKEN")).toBe("my own token");
  });

  it("for a test server is kept with its state, apart from its signing key", () => {
    const state = mkdtempSync(path.join(scratch, "state-"));
    const token = stateGatewayToken(state);
    expect(stateGatewayToken(state)).toBe(token);
    expect(token).not.toBe(stateSessionSecret(state));
    expect(stateGatewayToken(mkdtempSync(path.join(scratch, "state-")))).not.toBe(token);
  });
});

describe("the local development VAPID keys", () => {
  it("are written on the first run as a P-256 pair that signs and verifies, and kept after", () => {
    const file = path.join(scratch, "vapid.dev.vars");
    ensureSessionSecret(file);
    expect(ensureVapidKeys(file)).toEqual({ written: true });
    const publicKey = readDevVar(file, "VAPID_PUBLIC_KEY") ?? "";
    const privateKey = readDevVar(file, "VAPID_PRIVATE_KEY") ?? "";
    const point = Buffer.from(publicKey, "base64url");
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
    const jwk = {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    };
    const signature = sign(
      "sha256",
      Buffer.from("vapid"),
      createPrivateKey({ key: { ...jwk, d: privateKey }, format: "jwk" }),
    );
    expect(
      verify("sha256", Buffer.from("vapid"), createPublicKey({ key: jwk, format: "jwk" }), signature),
    ).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(ensureVapidKeys(file)).toEqual({ written: false });
    expect(readDevVar(file, "VAPID_PUBLIC_KEY")).toBe(publicKey);
    expect(readDevVar(file, "VAPID_PRIVATE_KEY")).toBe(privateKey);
    const other = path.join(scratch, "other-vapid.dev.vars");
    ensureVapidKeys(other);
    expect(readDevVar(other, "VAPID_PUBLIC_KEY")).not.toBe(publicKey);
  });

  it("leave a developer's own key alone, and add no second half beside half a pair", () => {
    const own = path.join(scratch, "own-vapid.dev.vars");
    writeFileSync(own, "VAPID_PUBLIC_KEY=BOwn\n");
    expect(ensureVapidKeys(own)).toEqual({ written: false });
    expect(readFileSync(own, "utf8")).toBe("VAPID_PUBLIC_KEY=BOwn\n");
  });
});
