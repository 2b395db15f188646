// vitest global setup (Node): starts the test MCP servers on the ports vitest.config.ts chose and
// gave the Worker in MCP_SERVERS, and tells the tests where the control endpoint is.
import process from "node:process";
import type { TestProject } from "vitest/node";
import { startTestServers, type TestServerPorts } from "./test-servers";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const ports = JSON.parse(process.env.PARLEY_MCP_TEST_PORTS ?? "null") as TestServerPorts | null;
  if (!ports) throw new Error("PARLEY_MCP_TEST_PORTS is not set (vitest.config.ts sets it)");
  const stop = await startTestServers(ports);
  project.provide("mcpControlUrl", `http://127.0.0.1:${ports.control}`);
  return stop;
}
