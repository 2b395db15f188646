// `parley daemon --server URL --agent-key K --config FILE`: keeps this machine connected to its
// person's Parley and starts, on the person's request, only the agents and folders FILE allows.
// It logs every start and refusal, tells the person why it refused, and stops when its key is
// revoked. Exit codes: 2 for bad flags or config, 1 once the key is revoked, 0 on SIGINT/SIGTERM.
import process from "node:process";
import { parseArgs } from "node:util";
import { AGENT_KEY_PREFIX } from "../src/protocol/machines/agent-key-words";
import { MachineStop } from "../src/protocol/machines/machines";
import { fail } from "./bridge-options";
import { helloOf, readDaemonConfig } from "./daemon/daemon-config";
import { DaemonRuns } from "./daemon/daemon-runs";
import { decideStart } from "./daemon/daemon-starts";
import { runMachineSocket } from "./daemon/machine-socket";

const USAGE = `Usage: parley daemon --server URL --agent-key K --config FILE
  Connects this machine to your Parley inbox and starts, when you ask from any device, the agents
  FILE allows in the folders it lists (FILE: chmod 600; see docs/guide-bridges.md).`;

export async function runDaemon(args: string[]): Promise<void> {
  let values: { server?: string; "agent-key"?: string; config?: string };
  try {
    values = parseArgs({
      args,
      options: { server: { type: "string" }, "agent-key": { type: "string" }, config: { type: "string" } },
    }).values;
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
  }
  const server = values.server ?? process.env.PARLEY_SERVER;
  const agentKey = values["agent-key"] ?? process.env.PARLEY_AGENT_KEY;
  if (!server || !values.config) fail(USAGE, 2);
  if (!agentKey?.startsWith(AGENT_KEY_PREFIX))
    fail(
      `give --agent-key (or PARLEY_AGENT_KEY): an agent key (${AGENT_KEY_PREFIX}…) minted in your inbox`,
      2,
    );
  try {
    if (!/^https?:$/.test(new URL(server).protocol)) throw new Error("not http");
  } catch {
    fail(`--server must be an http(s) address, not ${server}`, 2);
  }
  const read = readDaemonConfig(values.config);
  if (!read.ok) fail(read.message, 2);
  const config = read.config;
  const log = (line: string) => process.stderr.write(`parley daemon: ${line}\n`);
  const connection = new AbortController();
  let reply: (frame: unknown) => void = () => {};
  const runs = new DaemonRuns({
    parleyScript: process.argv[1] as string,
    log,
    ended: (sessionId, code) => reply({ type: "ended", sessionId, code }),
  });

  const onFrame = async (frame: unknown, send: (frame: unknown) => void) => {
    reply = send;
    const type = (frame as { type?: unknown } | null)?.type;
    if (type === "stop") {
      const stop = MachineStop.safeParse(frame);
      if (stop.success && !runs.stop(stop.data.sessionId))
        log(`session ${stop.data.sessionId} was not running here`);
      return;
    }
    if (type !== "start") return;
    const decision = decideStart(config, frame);
    if (!decision.ok) {
      log(`refused a start: ${decision.reason}`);
      if (decision.sessionId)
        send({ type: "start_ack", sessionId: decision.sessionId, started: false, reason: decision.reason });
      return;
    }
    const started = await runs.start(decision.plan);
    if (!started.ok)
      log(`could not start ${decision.plan.agent} for session ${decision.plan.sessionId}: ${started.reason}`);
    send({
      type: "start_ack",
      sessionId: decision.plan.sessionId,
      started: started.ok,
      ...(started.ok ? {} : { reason: started.reason }),
    });
  };

  const shutdown = () => {
    runs.stopAll();
    connection.abort();
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  log(`${config.label}: offering ${Object.keys(config.agents).join(", ")} in ${config.folders.join(", ")}`);
  const end = await runMachineSocket({
    server,
    agentKey,
    hello: helloOf(config),
    log,
    command: (frame, send) => void onFrame(frame, send),
    signal: connection.signal,
  });
  if (end === "revoked") {
    log("this machine's agent key was revoked: it takes no more work");
    runs.stopAll();
    process.exit(1);
  }
  process.exit(0);
}
