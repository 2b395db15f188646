// The secrets a local Parley uses: `npm run dev` keeps a signing key (SESSION_SECRET), the person's
// credential (GATEWAY_TOKEN) and Web Push's VAPID keys per checkout in the git-ignored `.dev.vars`
// (written on first run, read after), and the test servers make theirs per server. None is a
// constant in the source, so no page or process that reads the source can sign tokens or be the
// person with it.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

/** A fresh random SESSION_SECRET: 32 bytes, the HMAC-SHA256 key size, as base64. */
export function newSessionSecret() {
  return randomBytes(32).toString("base64");
}

/** A fresh random GATEWAY_TOKEN: 32 bytes as base64url (no character a shell or a header minds). */
export function newGatewayToken() {
  return randomBytes(32).toString("base64url");
}

/**
 * The value of `name` in the dotenv file at `path` (quotes taken off), or null.
 * @param {string} path
 * @param {string} name
 */
export function readDevVar(path, name) {
  if (!existsSync(path)) return null;
  const line = new RegExp(`^\\s*${name}\\s*=\\s*(\\S.*?)\\s*$`, "m").exec(readFileSync(path, "utf8"));
  if (!line?.[1]) return null;
  return line[1].replace(/^(["'])(.*)\1$/, "$2");
}

/**
 * Makes sure the dotenv file at `path` holds `name`, adding `make()` when it has none; an existing
 * value (the developer's own included) is kept untouched. A new file is readable by its owner only.
 * @param {string} path
 * @param {string} name
 * @param {() => string} make
 * @returns {{ written: boolean }}
 */
function ensureDevVar(path, name, make) {
  if (readDevVar(path, name) !== null) return { written: false };
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const line = `${name}=${make()}\n`;
  if (text === "")
    writeFileSync(path, `# Written by npm run dev; never commit this file.\n${line}`, { mode: 0o600 });
  else appendFileSync(path, `${text.endsWith("\n") ? "" : "\n"}${line}`);
  return { written: true };
}

/** Makes sure `path` holds a SESSION_SECRET (see ensureDevVar). @param {string} path */
export function ensureSessionSecret(path) {
  return ensureDevVar(path, "SESSION_SECRET", newSessionSecret);
}

/** Makes sure `path` holds a GATEWAY_TOKEN, the local person's credential. @param {string} path */
export function ensureGatewayToken(path) {
  return ensureDevVar(path, "GATEWAY_TOKEN", newGatewayToken);
}

/**
 * A fresh VAPID key pair (RFC 8292): a P-256 key, the public one as its uncompressed point and the
 * private one as its scalar `d`, both base64url, as Web Push libraries and browsers take them.
 */
export function newVapidKeys() {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = privateKey.export({ format: "jwk" });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? "", "base64url"),
    Buffer.from(jwk.y ?? "", "base64url"),
  ]);
  return { publicKey: point.toString("base64url"), privateKey: jwk.d ?? "" };
}

/**
 * Makes sure `path` holds VAPID keys, so a local Parley pushes from its first start: a new pair
 * when it has neither key; a pair the developer set (or half of one) is left untouched.
 * @param {string} path
 * @returns {{ written: boolean }}
 */
export function ensureVapidKeys(path) {
  if (readDevVar(path, "VAPID_PUBLIC_KEY") !== null || readDevVar(path, "VAPID_PRIVATE_KEY") !== null)
    return { written: false };
  const keys = newVapidKeys();
  ensureDevVar(path, "VAPID_PUBLIC_KEY", () => keys.publicKey);
  ensureDevVar(path, "VAPID_PRIVATE_KEY", () => keys.privateKey);
  return { written: true };
}

/**
 * A secret a test server keeps in its state directory, so a restart on the same state still
 * accepts what it signed and who held it before; a new one for a new directory.
 * @param {string} stateDir
 * @param {string} file
 * @param {() => string} make
 */
function stateSecret(stateDir, file, make) {
  const path = `${stateDir}/${file}`;
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  // The state directory of a first start may not exist yet (wrangler makes it later).
  mkdirSync(stateDir, { recursive: true });
  const secret = make();
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
}

/** A test server's SESSION_SECRET, kept with its state. @param {string} stateDir */
export function stateSessionSecret(stateDir) {
  return stateSecret(stateDir, "session-secret", newSessionSecret);
}

/** A test server's GATEWAY_TOKEN, kept with its state. @param {string} stateDir */
export function stateGatewayToken(stateDir) {
  return stateSecret(stateDir, "gateway-token", newGatewayToken);
}
