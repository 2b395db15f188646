// `npm run dev`: wrangler dev on loopback (127.0.0.1:8787) with this checkout's own SESSION_SECRET,
// written to the git-ignored `.dev.vars` on first run and kept after (scripts/dev-secret.mjs).
// Arguments after `npm run dev --` go to wrangler.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ensureSessionSecret } from "./dev-secret.mjs";
import { WRANGLER } from "./wrangler-dev.mjs";

const devVars = fileURLToPath(new URL("../.dev.vars", import.meta.url));
if (ensureSessionSecret(devVars).written) {
  console.log("Parley: wrote a random SESSION_SECRET to .dev.vars (kept for later runs; never commit it).");
}
const extra = process.argv.slice(2);
const given = (flag) => extra.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
// Loopback unless told otherwise: with no GATEWAY_TOKEN the Worker serves this machine only anyway.
const args = [WRANGLER, "dev", ...(given("--ip") ? [] : ["--ip", "127.0.0.1"])];
args.push(...(given("--port") ? [] : ["--port", "8787"]), ...extra);
const child = spawn(process.execPath, args, { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
