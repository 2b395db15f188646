// `npm run dev` from a clean clone: it writes the person's credential to its own `.dev.vars`,
// prints the page's address with a one-time sign-in, and the page works from that address in
// Chromium; a request with no credential gets 401, and a bridge with none exits 2.
import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevVar } from "../../scripts/dev-secret.mjs";
import { ADDRESS_IN_USE, freePort } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";
import { spawnDev } from "./dev-process";
import { launchBrowser } from "./harness";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ADDRESS = /(http:\/\/127\.0\.0\.1:\d+)\/#\/sign-in\?code=[\w.-]+/;

let dir = "";
let dev: ChildProcess | undefined;
let output = "";
let address = "";
let base = "";
let browser: Browser | undefined;

/** Resolves with the printed sign-in address, or fails with what `npm run dev` printed. */
function printedAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ADDRESS.exec(output);
      if (found) resolve(found[0]);
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => reject(new Error(`npm run dev exited (${code}):\n${output.slice(-3000)}`)));
  });
}

async function openPage(url: string): Promise<Page> {
  const context = await (browser as Browser).newContext({ reducedMotion: "reduce" });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[dev page] page error:", error));
  await page.goto(url);
  return page;
}

describe.skipIf(!hasChromium)("npm run dev from a clean clone", () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "parley-dev-"));
    // A port found free can be bound by another server of the suite before wrangler binds it:
    // then `npm run dev` exits with "Address already in use", and starts again on others.
    for (let attempt = 1; ; attempt++) {
      try {
        dev = spawnDev(dir, await freePort(), await freePort());
        address = await printedAddress(dev);
        break;
      } catch (error) {
        if (attempt === 3 || !ADDRESS_IN_USE.test(String(error))) throw error;
        output = "";
      }
    }
    base = (ADDRESS.exec(address) as RegExpExecArray)[1] as string;
    browser = await launchBrowser({ signedIn: false });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dev?.pid !== undefined && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev?.once("exit", resolve));
      process.kill(-dev.pid, "SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("writes a signing key and the person's credential to its .dev.vars, readable by its owner only, and never prints the token", async () => {
    const file = join(dir, ".dev.vars");
    const token = readDevVar(file, "GATEWAY_TOKEN");
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(readDevVar(file, "SESSION_SECRET")).toBeTruthy();
    expect((await stat(file)).mode & 0o077).toBe(0);
    expect(output).not.toContain(token);
    expect(await readFile(file, "utf8")).toMatch(/never commit/);
  });

  it("writes VAPID keys on its first run, so the server offers push from its first start", async () => {
    const publicKey = readDevVar(join(dir, ".dev.vars"), "VAPID_PUBLIC_KEY");
    expect(publicKey).toMatch(/^B[\w-]{86}$/);
    expect(readDevVar(join(dir, ".dev.vars"), "VAPID_PRIVATE_KEY")).toMatch(/^[\w-]{43}$/);
    const info = await (await fetch(`${base}/api/notify`)).json();
    expect(info).toEqual({ vapidPublicKey: publicKey, reason: null });
  });

  it("answers a request with no credential 401, on every person route, from loopback", async () => {
    for (const [method, path] of [
      ["GET", "/api/inbox"],
      ["POST", `/api/inbox/cards/${"0".repeat(32)}/toolu_x/respond`],
      ["GET", "/api/grants"],
      ["POST", "/api/agent-keys"],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(method === "POST" ? { body: JSON.stringify({ response: { decision: "approve" } }) } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it("refuses to start parley mcp with no credential (exit 2)", () => {
    const run = spawnSync(process.execPath, ["bin/parley.mjs", "mcp", "--server", base], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 15_000,
      input: "",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^parley: refusing to start: no credential;/);
  });

  it("opens the inbox in Chromium from the printed address, with the code gone from the address bar", async () => {
    const page = await openPage(address);
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await page.getByRole("heading", { name: "Start a new session" }).waitFor();
    expect(page.url()).not.toContain("code=");
    // Signed in for good: the inbox opens again at its plain address.
    await page.goto(`${base}/`);
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor();
  });

  it("signs in once: the same address in another browser says it was used, and how to sign in", async () => {
    const page = await openPage(address);
    await page.getByRole("heading", { name: "This address did not sign you in" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toMatch(/already used/);
    await page.getByText(/run `npm run dev` and open the address it prints/).waitFor();
  });

  it("shows a browser that never signed in how to sign in, not a broken page", async () => {
    const page = await openPage(`${base}/`);
    await page.getByText(/Sign in to see your inbox: .*npm run dev/).waitFor();
    await page.locator("#inbox-gateway").waitFor();
  });
});
