// `parley attach`: a terminal becomes one more device of a session, its share link read from a file,
// a prompt or standard input (never an argument).
import { hostname } from "node:os";
import process from "node:process";
import { createInterface } from "node:readline";
import { ApiError, fetchSnapshot, parseShareLink, SessionClient } from "../client/client";
import { readAttachArgs } from "./attach-args";
import { firstLine, linkFromFile } from "./attach-link";
import { fail, USAGE } from "./cli-usage";
import { TerminalDevice } from "./terminal-device";
import { wantsColor } from "./terminal-paint";

export async function runAttach(args: string[]): Promise<void> {
  const read = readAttachArgs(args);
  if (!read.ok) fail(`${read.message}\n${USAGE}`, 2);
  const { linkFile, device } = read;
  const link = await readLink(linkFile);
  // Never echoed: the link is the credential.
  const route = parseShareLink(link);
  if (!route) fail("not a Parley share link (expected https://host/#/s/<id>?token=…)", 2);
  try {
    await fetchSnapshot(route.baseUrl, route.sessionId, route.token);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      fail(`this link does not open a session: ${error.message}`, 2);
    fail(`cannot reach ${route.baseUrl}: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  if (typeof WebSocket === "undefined") fail(`attach needs Node 22 or newer (this is ${process.version})`, 1);
  const deviceId =
    device ??
    `cli-${
      hostname()
        .replace(/[^\w.-]/g, "")
        .slice(0, 24) || "terminal"
    }`;
  const client = new SessionClient({ ...route, deviceId, client: "terminal" });
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  new TerminalDevice(
    client,
    rl,
    (text) => process.stdout.write(text),
    deviceId,
    process.stdin.isTTY === true,
    wantsColor(process.env, process.stdout.isTTY),
  );
  const leave = () => {
    client.close();
    rl.close();
    process.stdout.write("\nLeft the session. It keeps running; any other device can still answer.\n");
    process.exit(0);
  };
  rl.on("SIGINT", leave);
  rl.on("close", leave);
  process.on("SIGTERM", leave);
  client.connect();
}

/** The share link from `--link-file`, else the first line of standard input (asked for on a terminal). */
async function readLink(linkFile: string | undefined): Promise<string> {
  if (linkFile !== undefined) {
    try {
      return await linkFromFile(linkFile);
    } catch (error) {
      fail(`cannot read --link-file: ${error instanceof Error ? error.message : String(error)}`, 2);
    }
  }
  if (process.stdin.isTTY) process.stderr.write("Paste the session's share link and press Enter: ");
  const link = await firstLine(process.stdin);
  if (!link) fail(`attach needs a share link\n${USAGE}`, 2);
  return link;
}
