#!/usr/bin/env node
// The `parley` command: prints its version, warns when the gateway it bridges to serves another
// one, then runs the bundled command (dist/parley-cli.js, built from bin/parley-cli.ts; the gateway's
// /cli/parley.tgz holds this file beside it in the same layout).
import { readFileSync } from "node:fs";

const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
const args = process.argv.slice(2);
if (args[0] === "--version" || args[0] === "-v") {
  process.stdout.write(`${version}\n`);
  process.exit(0);
}
warnOnOtherVersion(args);

try {
  await import("../dist/parley-cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("parley-cli.js")) throw error;
  process.stderr.write(
    "parley: the command is not built yet; run `npm run build:client` in the Parley checkout\n",
  );
  process.exit(1);
}

/**
 * The long-running bridges ask the gateway for its version (a public file, no credential sent) and
 * say so in one line when it differs. Hooks run once per tool call, so they skip it.
 * @param {string[]} argv
 */
function warnOnOtherVersion([command, ...rest]) {
  if (!["mcp", "acp", "daemon", "claude-code"].includes(command ?? "")) return;
  const origin = gatewayOrigin(rest);
  if (!origin) return;
  // Generous: the bundle's compile shares the start with this request, and nothing waits on it.
  fetch(`${origin}/cli/version.json`, { signal: AbortSignal.timeout(30_000) })
    .then((response) => (response.ok ? response.json() : null))
    .then((served) => {
      // Printed only as a plain version: the answer is the server's text, bound for a terminal.
      const theirs = served?.version;
      if (typeof theirs !== "string" || !/^[\w.+-]{1,40}$/.test(theirs) || theirs === version) return;
      process.stderr.write(
        `parley: this command is ${version} but ${origin} serves ${theirs}; run npx -y ${origin}/cli/parley.tgz\n`,
      );
    })
    // An older gateway, or one out of reach: the bridge itself says what is wrong.
    .catch(() => {});
}

/**
 * The gateway's origin from `--server` or `--link` (only its origin: a link carries a token), or
 * PARLEY_SERVER / PARLEY_LINK; arguments after `--` belong to the agent.
 * @param {string[]} rest
 * @returns {string | null}
 */
function gatewayOrigin(rest) {
  const own = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  const value = (name) => {
    const at = own.indexOf(`--${name}`);
    if (at >= 0) return own[at + 1];
    return own.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  };
  const address = value("server") ?? value("link") ?? process.env.PARLEY_SERVER ?? process.env.PARLEY_LINK;
  try {
    const url = new URL(address ?? "");
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}
