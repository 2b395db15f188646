// `npm run dev`: wrangler dev on loopback (127.0.0.1:8787) with this checkout's own SESSION_SECRET,
// GATEWAY_TOKEN and VAPID keys, written to the git-ignored `.dev.vars` on first run and kept after
// (scripts/dev-secret.mjs); once it answers, the page's address with a one-time sign-in.
// Arguments after `npm run dev --` go to wrangler. PARLEY_DEV_VARS names another file than
// `.dev.vars` (the tests' own, so they never touch the developer's).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureGatewayToken, ensureSessionSecret, ensureVapidKeys, readDevVar } from "./dev-secret.mjs";
import { SIGN_IN_TTL_MS, signInAddress, signInCode } from "./dev-sign-in.mjs";
import { WRANGLER } from "./wrangler-dev.mjs";

const defaultDevVars = fileURLToPath(new URL("../.dev.vars", import.meta.url));
const devVars = process.env.PARLEY_DEV_VARS ? resolve(process.env.PARLEY_DEV_VARS) : defaultDevVars;
const shown = devVars === defaultDevVars ? ".dev.vars" : devVars;
if (ensureSessionSecret(devVars).written) {
  console.log(`Parley: wrote a random SESSION_SECRET to ${shown} (kept for later runs; never commit it).`);
}
if (ensureGatewayToken(devVars).written) {
  console.log(`Parley: wrote a random GATEWAY_TOKEN to ${shown}: it is you, the person who answers.`);
}
if (ensureVapidKeys(devVars).written) {
  console.log(
    `Parley: wrote new VAPID keys to ${shown}, so "Notify this device" works from the first start.`,
  );
}
const extra = process.argv.slice(2);
const flagValue = (flag) => {
  const at = extra.findIndex((arg) => arg === flag || arg.startsWith(`${flag}=`));
  if (at < 0) return undefined;
  return extra[at]?.includes("=") ? extra[at].slice(flag.length + 1) : extra[at + 1];
};
// Loopback unless told otherwise: the page's address below signs in whoever opens it.
const ip = flagValue("--ip") ?? "127.0.0.1";
const port = flagValue("--port") ?? "8787";
const args = [
  WRANGLER,
  "dev",
  ...(flagValue("--ip") ? [] : ["--ip", ip]),
  ...(flagValue("--port") ? [] : ["--port", port]),
];
// Wrangler reads `.dev.vars` beside wrangler.toml; another file it reads as an env file instead.
if (devVars !== defaultDevVars) args.push("--env-file", devVars);
args.push(...extra);
const child = spawn(process.execPath, args, { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const host = ip === "0.0.0.0" || ip === "::" || ip === "*" ? "127.0.0.1" : ip.includes(":") ? `[${ip}]` : ip;
const baseUrl = `http://${host}:${port}`;
await untilAnswering(baseUrl);
const secret = readDevVar(devVars, "SESSION_SECRET");
if (secret) {
  const address = signInAddress(baseUrl, await signInCode(secret, Date.now()));
  const minutes = Math.round(SIGN_IN_TTL_MS / 60_000);
  console.log(
    `\nParley is ready. Open your inbox — this address signs this browser in once, within ${minutes} minutes:\n\n  ${address}\n\n` +
      "Each `npm run dev` prints a new one; a browser signed in once stays signed in.\n",
  );
}

/**
 * Resolves once Parley's Worker answers at `url` (wrangler builds it first); never, if wrangler
 * exits. Any answer would not do: another process holding the port answers too, until wrangler
 * fails to bind it and exits with its "Address already in use".
 */
async function untilAnswering(url) {
  for (;;) {
    try {
      // The first API request loads the Worker: seconds on a busy machine.
      const response = await fetch(`${url}/api/notify`, { signal: AbortSignal.timeout(60_000) });
      const body = await response.text();
      if (response.ok && "vapidPublicKey" in JSON.parse(body)) return;
    } catch {
      // Not answering yet, or not JSON: asked again below.
    }
    await new Promise((wake) => setTimeout(wake, 250));
  }
}
