// The signing key a local Parley uses: `npm run dev` keeps one per checkout in the git-ignored
// `.dev.vars` (written on first run, read after), and the test servers make one per server. No key
// is a constant in the source, so no page or person who reads the source can sign tokens with it.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

/** A fresh random SESSION_SECRET: 32 bytes, the HMAC-SHA256 key size, as base64. */
export function newSessionSecret() {
  return randomBytes(32).toString("base64");
}

/**
 * Makes sure the dotenv file at `path` holds a SESSION_SECRET, adding a random one when it has none;
 * an existing one (the developer's own included) is kept untouched.
 * @param {string} path
 * @returns {{ written: boolean }}
 */
export function ensureSessionSecret(path) {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  if (/^\s*SESSION_SECRET\s*=\s*\S/m.test(text)) return { written: false };
  const line = `SESSION_SECRET=${newSessionSecret()}\n`;
  if (text === "")
    writeFileSync(path, `# Written by npm run dev; never commit this file.\n${line}`, { mode: 0o600 });
  else appendFileSync(path, `${text.endsWith("\n") ? "" : "\n"}${line}`);
  return { written: true };
}

/**
 * The secret a test server keeps in its state directory, so a restart on the same state still
 * accepts the tokens it signed before; a new one for a new directory.
 * @param {string} stateDir
 */
export function stateSessionSecret(stateDir) {
  const path = `${stateDir}/session-secret`;
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  // The state directory of a first start may not exist yet (wrangler makes it later).
  mkdirSync(stateDir, { recursive: true });
  const secret = newSessionSecret();
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
}
