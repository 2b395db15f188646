// Starts one `wrangler dev` with scripted sessions allowed for the whole browser suite.

import process from "node:process";
import type { TestProject } from "vitest/node";
import { startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { CHROMIUM_PATH, hasChromium } from "./browser-env";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!hasChromium) {
    console.warn(`browser tests skipped: ${CHROMIUM_PATH} not found (apt-get install chromium)`);
    project.provide("baseUrl", "");
    return undefined;
  }
  const server = await startWranglerDev({
    vars: { ALLOW_SCRIPTED_SESSIONS: "true" },
    verbose: process.env.E2E_VERBOSE === "1",
  });
  project.provide("baseUrl", server.baseUrl);
  return () => server.stop();
}
