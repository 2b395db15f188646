// Where the browser tests find chromium and the server, and whether they can run at all.
import { existsSync } from "node:fs";
import process from "node:process";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** True when there is a browser to drive; the suite skips (loudly) otherwise. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/**
 * Chromium's headless shell (Debian's chromium-headless-shell): the same engine and DevTools
 * protocol without the browser's own UI, which costs a quarter less CPU across the suite. It shows
 * no notifications (a page that tries crashes), so the files that watch one use the full browser.
 */
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";

/** True when the headless shell is there; without it every file uses the full browser. */
export const hasHeadlessShell = existsSync(HEADLESS_SHELL_PATH);

/**
 * The features playwright-core turns off (its chromiumSwitches.ts), copied: chromium honours only
 * the last `--disable-features`, so a list of the suite's own must carry these too.
 * test/build/chromium-args.test.ts fails when an upgrade of playwright-core changes its list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Every window chromium opens (one a context in headless mode) preloads its address bar's popups
 * in renderers of their own: two more renderers a context, which took a fifth of the browser
 * suite's CPU. No test has an address bar to type in.
 */
const SUITE_DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

export const CHROMIUM_ARGS = [
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...SUITE_DISABLED_FEATURES].join(",")}`,
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

declare module "vitest" {
  interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the wrangler dev started by global-setup. */
    baseUrl: string;
    /** That server's GATEWAY_TOKEN: the one person (the operator) of the browser tests. */
    gatewayToken: string;
    /** The Telegram Bot API stand-in's `http://127.0.0.1:<port>` (test/helpers/telegram-api.ts). */
    telegramApiUrl: string;
    slackApiUrl: string;
    /** The Discord REST API stand-in's `http://127.0.0.1:<port>` (test/helpers/discord-api.ts). */
    discordApiUrl: string;
    /** The private half of the run's Discord application key (a JWK), to sign interactions with. */
    discordSigningKey: string;
  }
}
