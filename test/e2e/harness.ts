// Shared pieces of the browser tests: scripted sessions over HTTP, one chromium per test worker
// (each file its own contexts in it), pages opened at a session's share link, and screenshots for the docs.
import { mkdir } from "node:fs/promises";
import process from "node:process";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import { inject } from "vitest";
import { createSession } from "../../client/session-api";
import { buildShareUrl } from "../../client/session-link";
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH, hasHeadlessShell } from "./browser-env";

export const baseUrl = (): string => inject("baseUrl");
/** The suite's server's GATEWAY_TOKEN: what makes a request the person (the operator). */
export const gatewayToken = (): string => inject("gatewayToken");
/** The header that makes a request the person's. */
export const asPerson = (): Record<string, string> => ({ authorization: `Bearer ${gatewayToken()}` });

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };
/** One scripted model reply (the server validates the full shape). */
export interface Reply {
  content: Block[];
  stopReason?: string;
  textChunkSize?: number;
  paceMs?: number;
  error?: { code: string; message: string; afterEvents?: number };
}

export interface TestSession {
  sessionId: string;
  token: string;
  shareUrl: string;
}

export async function scriptedSession(
  script: Reply[],
  options: {
    interactionTimeoutMs?: number;
    permissionMode?: "default" | "plan" | "bypassPermissions";
    mcpServers?: string[];
  } = {},
): Promise<TestSession> {
  const created = await createSession(baseUrl(), { script, ...options }, { gatewayToken: gatewayToken() });
  return { ...created, shareUrl: buildShareUrl(baseUrl(), created) };
}

/** Calls a session route over HTTP as a command-line device named `cli` would. */
export async function postAs(session: TestSession, route: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl()}/api/sessions/${session.sessionId}/${route}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${session.token}`,
      "content-type": "application/json",
      "x-device-id": "cli",
    },
    body: JSON.stringify(body),
  });
}

/** Posts a user message over HTTP. */
export async function postMessage(session: TestSession, text: string): Promise<void> {
  const response = await postAs(session, "messages", { text });
  if (!response.ok) throw new Error(`POST messages: ${response.status} ${await response.text()}`);
}

// One chromium per test worker and kind (the headless shell, or the full browser for a file that
// watches notifications): the browser suite runs its files without isolation, so this module (and
// the browsers) outlive a file. Launched on first use; playwright ends them when the worker's
// process exits. A browser that crashed is replaced for the next file.
const sharedChromium = new Map<string, Promise<Browser>>();

function chromiumOfThisWorker(executablePath: string): Promise<Browser> {
  const current = sharedChromium.get(executablePath);
  if (current) {
    return current.then((browser) => {
      if (browser.isConnected()) return browser;
      sharedChromium.delete(executablePath);
      return chromiumOfThisWorker(executablePath);
    });
  }
  const launched = chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  sharedChromium.set(executablePath, launched);
  // A launch that failed is tried again by the next file rather than kept.
  launched.catch(() => {
    if (sharedChromium.get(executablePath) === launched) sharedChromium.delete(executablePath);
  });
  return launched;
}

/**
 * The person's browser for one test file: Debian's chromium (its headless shell; the full browser
 * with `{ notifications: true }`), every context of which is signed in as `npm run dev`'s address
 * signs one in (the gateway token kept where the page keeps it); `{ signedIn: false }` for a
 * browser that never was. Each file's browser is a view of its worker's one chromium: its contexts
 * are its own (own storage, own device id), and its `close()` closes them and leaves the chromium
 * to the next file.
 *
 * The page's service worker runs only in the files about what it does (`{ serviceWorker: true }`:
 * notifications, the home-screen app, its offline shell, "Notify this device"). It keeps the
 * page's shell for offline starts and shows pushes, and changes nothing a page does online; but a
 * new context installs it afresh, fetching and storing the whole shell again, which was two fifths
 * of the CPU of opening a page (0.26 of 0.65 CPU-seconds) for every device of every test.
 */
export async function launchBrowser({
  signedIn = true,
  notifications = false,
  serviceWorker = notifications,
}: {
  signedIn?: boolean;
  notifications?: boolean;
  serviceWorker?: boolean;
} = {}): Promise<Browser> {
  const browser = await chromiumOfThisWorker(
    notifications || !hasHeadlessShell ? CHROMIUM_PATH : HEADLESS_SHELL_PATH,
  );
  const contexts = new Set<BrowserContext>();
  const newContext = async (options?: BrowserContextOptions): Promise<BrowserContext> => {
    const context = await browser.newContext({
      serviceWorkers: serviceWorker ? "allow" : "block",
      ...options,
    });
    contexts.add(context);
    context.once("close", () => contexts.delete(context));
    return signedIn ? signIn(context) : context;
  };
  // As playwright's own newPage: a context of the page's own, closed with the page.
  const newPage = async (options?: BrowserContextOptions): Promise<Page> => {
    const context = await newContext(options);
    const page = await context.newPage();
    page.once("close", () => void context.close());
    return page;
  };
  const close = async (): Promise<void> => {
    await Promise.all([...contexts].map((context) => context.close()));
  };
  const own: Partial<Browser> = { newContext, newPage, close, contexts: () => [...contexts] };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof Browser];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function signIn(context: BrowserContext): Promise<BrowserContext> {
  await context.addInitScript((token) => {
    if (!localStorage.getItem("parley.gatewayToken")) localStorage.setItem("parley.gatewayToken", token);
  }, gatewayToken());
  return context;
}

/** A fresh browser context (its own localStorage, so its own device id) at the share link. */
export async function openDevice(browser: Browser, session: TestSession, name = "device"): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 900, height: 900 },
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`[${name}] page error:`, error));
  await page.goto(session.shareUrl);
  await page.locator(".connection[data-state=connected]").waitFor();
  return page;
}

/** Sends a message from the page's composer with the Enter key. */
export async function typeMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message to the agent" });
  await box.fill(text);
  await box.press("Enter");
}

// Committed screenshots change only on purpose: UPDATE_SCREENSHOTS=1 writes them to docs/screenshots.
const SHOTS = new URL(
  process.env.UPDATE_SCREENSHOTS === "1" ? "../../docs/screenshots/" : "./screenshots/",
  import.meta.url,
).pathname;

/** Saves a PNG of the viewport (git-ignored unless UPDATE_SCREENSHOTS=1 asks for the docs copy). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: false });
}

/** An AskUserQuestion call with one single-select question. */
export function askReply(id: string, question = "Which plan should I follow?"): Reply {
  return {
    content: [
      { type: "text", text: "I need one decision from you." },
      {
        type: "tool_use",
        id,
        name: "AskUserQuestion",
        input: {
          questions: [
            {
              question,
              header: "Plan",
              multiSelect: false,
              options: [
                { label: "Fast", description: "Ship today with the basics" },
                { label: "Thorough", description: "Take a week and cover edge cases" },
              ],
            },
          ],
        },
      },
    ],
  };
}

export const say = (text: string, extra: Partial<Reply> = {}): Reply => ({
  content: [{ type: "text", text }],
  ...extra,
});
