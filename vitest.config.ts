import { availableParallelism } from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { ACCESS_BINDINGS } from "./test/helpers/access-bindings.ts";
import { accessJwks } from "./test/helpers/access-jwks.ts";
import { discordApi, discordBindings } from "./test/helpers/discord-api.ts";
import { EMAIL_BINDING, emailBindingWorker } from "./test/helpers/email-recorder.ts";
import { MODEL_API_BINDINGS } from "./test/helpers/model-api-bindings.ts";
import { NOTIFY_BINDINGS } from "./test/helpers/notify-bindings.ts";
import { ONE_PERSON_GATEWAY_TOKEN } from "./test/helpers/one-person-bindings.ts";
import { outboundRecorder } from "./test/helpers/outbound-recorder.ts";
import { SLACK_BINDINGS, slackApi } from "./test/helpers/slack-api.ts";
import { TELEGRAM_BINDINGS, telegramApi } from "./test/helpers/telegram-api.ts";
import { testWranglerConfig } from "./test/helpers/test-wrangler-config.ts";
import { freePorts } from "./test/mcp-servers/free-ports";
import { type TestServerPorts, testMcpServers } from "./test/mcp-servers/test-servers";

// The test MCP servers listen on free loopback ports, picked here so the Worker's MCP_SERVERS
// binding and the global setup that starts the servers agree. With several projects this file may
// be read more than once in one process, so the first pick is kept.
const ports = process.env.PARLEY_MCP_TEST_PORTS
  ? (JSON.parse(process.env.PARLEY_MCP_TEST_PORTS) as TestServerPorts)
  : await pickPorts();
process.env.PARLEY_MCP_TEST_PORTS = JSON.stringify(ports);

async function pickPorts(): Promise<TestServerPorts> {
  const [everything, killable, mrtr, garbage, down, control] = (await freePorts(6)) as number[];
  return { everything, killable, mrtr, garbage, down, control } as TestServerPorts;
}

const bindings = {
  // Short timeouts and scripted sessions keep the worker tests fast and offline.
  INTERACTION_TIMEOUT_MS: "600000",
  ALLOW_SCRIPTED_SESSIONS: "true",
  SESSION_SECRET: "test-session-secret-at-least-32-bytes-long",
  // Heartbeats every quarter second, so a test sees an idle stream get some without waiting 15 s.
  SSE_HEARTBEAT_MS: "250",
  // Reports to the inbox move a session's alarm; only the inbox project's tests expect that.
  INBOX_DISABLED: "true",
  // Shadow reads in every Workers runtime: after each input an object compares its kept copies of
  // stored rows with storage, and a test after which one differed fails. Its reads are not counted
  // as the object's own, so the tests that count statements see what production runs.
  SHADOW_READS: "true",
};

// The tests load the Worker from its sources; wrangler.toml's `main` is the split build that deploys
// (scripts/build-worker.mjs), which the browser tests and the benchmark run. Its settings are read
// from a copy in a folder of its own, so a developer's `.dev.vars` never reaches the tests.
const WORKER = {
  main: "./src/index.ts",
  wrangler: { configPath: await testWranglerConfig(fileURLToPath(new URL(".", import.meta.url))) },
};

// A Discord application whose key pair is made for this run: Discord's public key for the Worker,
// the private key for the tests that sign interactions with it.
const DISCORD_BINDINGS = await discordBindings();

const shared = {
  // Test files share their runner: with isolation on, Vitest started a workerd (and loaded the
  // Worker's modules again) for every one of 180 files, about 1.5 s each; off, the whole run takes
  // about 1 minute instead of 3 m 40 s on 2 cores. Tests make their own sessions and give their
  // people and client addresses names of their own, so what one file leaves behind is not read by
  // another.
  isolate: false,
  // The first test on each runner also pays for loading the Worker; on a busy 2-core machine that
  // alone can take several seconds.
  testTimeout: 20_000,
  // Vitest's own second for an `expect.poll` is too short on a busy machine: a bridge's read made
  // again after a dropped connection (card-wait-poll.test.ts) once took longer and failed a run.
  // A poll that passes returns at once, so a longer limit costs a passing test nothing.
  expect: { poll: { timeout: 10_000 } },
  deps: {
    optimizer: {
      ssr: {
        include: [
          "@anthropic-ai/sdk",
          "zod",
          "hono",
          "chat",
          "@chat-adapter/telegram",
          "@chat-adapter/slack",
          "discord-interactions",
        ],
      },
    },
  },
};
// The Workers projects' own: a test after which an object's shadow reads found a difference fails.
const workersShared = { ...shared, setupFiles: ["test/helpers/shadow-reads-setup.ts"] };

// The core's unit tests run in plain Node, so a Workers-only API used by the core fails here.
// The terminal device (bin/) is a Node program, so its tests run there too.
const CORE_UNIT_TESTS = [
  // The client's tests fake the timers: in the Workers runner they would also fake the timers of
  // objects earlier files left running in the same isolate, and a 0 ms timer there could spin forever.
  ...[
    "agent",
    "bridge",
    "grants",
    "assessment",
    "interactions",
    "tools",
    "model",
    "protocol",
    "display",
    "bin",
    "client",
  ].map((folder) => `test/unit/${folder}/**/*.test.ts`),
  // The service worker is a classic script evaluated with stand-in globals, which workerd forbids.
  "test/unit/web/static/**/*.test.ts",
];

const markdownAsText = {
  name: "markdown-as-text",
  transform(source: string, id: string) {
    return id.endsWith(".md") ? { code: `export default ${JSON.stringify(source)};`, map: null } : null;
  },
};

/**
 * A Workers project of a deployment without Cloudflare Access (its one person the operator, whose
 * inbox is on), in a runtime of its own: `name` and its files are all that differ between them.
 */
function withoutAccess(name: string, include: string[]) {
  return {
    plugins: [
      cloudflareTest({
        ...WORKER,
        miniflare: {
          bindings: {
            ...bindings,
            GATEWAY_TOKEN: ONE_PERSON_GATEWAY_TOKEN,
            INBOX_DISABLED: "false",
            APPROVAL_POLICIES: JSON.stringify([{ rule: "Bash(git push:*)", approvals: 2 }]),
          },
        },
      }),
    ],
    test: { name, include, ...workersShared },
  };
}

export default defineConfig({
  test: {
    // A Workers test file spends much of its time waiting on workerd (loading modules over RPC,
    // storage, sockets), so one file per core keeps both cores of a small machine busy; Vitest's
    // default of one fewer left a 2-core machine half idle (5 m 19 s against 3 m 39 s).
    maxWorkers: availableParallelism(),
    projects: [
      {
        plugins: [
          cloudflareTest({
            ...WORKER,
            miniflare: { bindings: { ...bindings, MCP_SERVERS: testMcpServers(ports) } },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/unit/**/*.test.ts", "test/worker/**/*.test.ts"],
          exclude: [
            "test/worker/notify/**",
            "test/worker/model-api/**",
            "test/worker/inbox/**",
            "test/worker/escalation/**",
            "test/worker/email/**",
            "test/worker/channels/**",
            "test/worker/budget/**",
            "test/worker/one-person/**",
            "test/worker/people/**",
            "test/worker/schema-count.test.ts",
            ...CORE_UNIT_TESTS,
          ],
          globalSetup: ["test/mcp-servers/global-setup.ts"],
          ...workersShared,
        },
      },
      {
        // Agent files are text modules (wrangler.toml's rules); Node gets the same from this plugin.
        plugins: [markdownAsText],
        test: {
          name: "core",
          environment: "node",
          include: [...CORE_UNIT_TESTS, "test/build/**/*.test.ts"],
          ...shared,
        },
      },
      // Counting the schemas a fresh import builds evaluates the Worker's modules again, which
      // would hand the files after it in a shared runner modules of their own: a runtime of its own.
      {
        plugins: [cloudflareTest({ ...WORKER, miniflare: { bindings } })],
        test: { name: "schema-count", include: ["test/worker/schema-count.test.ts"], ...workersShared },
      },
      // Notifications are configured for the whole runtime, so they get a runtime of their own:
      // the other tests keep an alarm that only their deadlines move.
      {
        plugins: [
          cloudflareTest({
            ...WORKER,
            miniflare: { bindings: { ...bindings, ...NOTIFY_BINDINGS }, outboundService: outboundRecorder },
          }),
        ],
        test: { name: "notify", include: ["test/worker/notify/**/*.test.ts"], ...workersShared },
      },
      // Sessions here talk to the Messages API through the real SDK (the tests serve it at the
      // network's edge), with a small context window so a long session fills it quickly.
      {
        plugins: [
          cloudflareTest({
            ...WORKER,
            miniflare: { bindings: { ...bindings, ...MODEL_API_BINDINGS } },
          }),
        ],
        // One file at a time, after the other projects: every file serves the one Messages API host
        // the runtime's binding names, and the real SDK's own retries wait in real time, which two
        // files side by side (or a busy machine) stretch past the tests' waits.
        test: {
          name: "model-api",
          include: ["test/worker/model-api/**/*.test.ts"],
          ...workersShared,
          fileParallelism: false,
          // A project run one file at a time is its own group, after the others.
          sequence: { groupOrder: 1 },
        },
      },
      // A daily model token budget small enough for a scripted reply's usage to spend it.
      {
        plugins: [
          cloudflareTest({
            ...WORKER,
            miniflare: { bindings: { ...bindings, SESSION_TOKEN_BUDGET: "1000" } },
          }),
        ],
        test: { name: "budget", include: ["test/worker/budget/**/*.test.ts"], ...workersShared },
      },
      // A deployment without Cloudflare Access: its one person is the operator (GATEWAY_TOKEN), so a
      // call that needs a second person can never get one, and its card says so everywhere.
      withoutAccess("one-person", ["test/worker/one-person/**/*.test.ts"]),
      // The same deployment without Access, in a runtime of its own: people the operator invites are
      // people of their own here, which would change what the one-person tests see of the operator.
      // Every file's operator is the same inbox of its runner's runtime, so a runner's files run one
      // after another; each runner has a runtime of its own.
      withoutAccess("people", ["test/worker/people/without-access/**/*.test.ts"]),
      // People and their inboxes: Cloudflare Access in front (its JWKS served at the network's
      // edge), and sessions that report to their creator's inbox.
      {
        plugins: [
          cloudflareTest({
            ...WORKER,
            miniflare: {
              // VAPID keys, so an inbox pushes; push services are recorded like the notify tests'.
              bindings: {
                ...bindings,
                ...ACCESS_BINDINGS,
                VAPID_PUBLIC_KEY: NOTIFY_BINDINGS.VAPID_PUBLIC_KEY,
                VAPID_PRIVATE_KEY: NOTIFY_BINDINGS.VAPID_PRIVATE_KEY,
                VAPID_SUBJECT: NOTIFY_BINDINGS.VAPID_SUBJECT,
                PUSH_SERVICE_DOMAINS: NOTIFY_BINDINGS.PUSH_SERVICE_DOMAINS,
                INBOX_DISABLED: "false",
                // Email through a recorded send_email binding (email-recorder.ts): nothing leaves.
                EMAIL_FROM: "parley@parley.test",
                // Pushes, a production MCP server and one deploy host need a second person.
                APPROVAL_POLICIES: JSON.stringify([
                  { rule: "Bash(git push:*)", approvals: 2 },
                  { rule: "mcp__prod__*", approvals: 2 },
                  { rule: "fetch_url(domain:deploy.parley.test)", approvals: 2 },
                ]),
              },
              outboundService: (request: Request) =>
                /^(push-.*\.parley\.test|outbound\.control)$/.test(new URL(request.url).hostname)
                  ? outboundRecorder(request)
                  : accessJwks(request),
              ...EMAIL_BINDING,
              workers: [emailBindingWorker(outboundRecorder)],
            },
          }),
        ],
        // Escalation ladders and email reach a person's inbox, so they run in this runtime too.
        test: {
          name: "inbox",
          include: [
            "test/worker/inbox/**/*.test.ts",
            "test/worker/escalation/**/*.test.ts",
            "test/worker/email/**/*.test.ts",
            "test/worker/people/with-access/**/*.test.ts",
          ],
          ...workersShared,
        },
      },
      // Chat channels: people behind Access (as in the inbox runtime), a Telegram bot and a Slack app
      // whose APIs are recorded stand-ins at the network's edge.
      {
        plugins: [
          cloudflareTest({
            ...WORKER,
            miniflare: {
              bindings: {
                ...bindings,
                ...ACCESS_BINDINGS,
                ...TELEGRAM_BINDINGS,
                ...SLACK_BINDINGS,
                ...DISCORD_BINDINGS,
                INBOX_DISABLED: "false",
                // A push needs a second person (telegram-two-person.test.ts).
                APPROVAL_POLICIES: JSON.stringify([{ rule: "Bash(git push:*)", approvals: 2 }]),
              },
              outboundService: (request: Request) =>
                /^telegram\.(parley\.test|control)$/.test(new URL(request.url).hostname)
                  ? telegramApi(request)
                  : /^slack\.(parley\.test|control)$/.test(new URL(request.url).hostname)
                    ? slackApi(request)
                    : /^discord\.(parley\.test|control)$/.test(new URL(request.url).hostname)
                      ? discordApi(request)
                      : accessJwks(request),
            },
          }),
        ],
        // A runner's files share its runtime's one channel object, which a restart test evicts, so
        // they run one after another; each runner has a runtime (and a channel object) of its own,
        // and the runners run side by side. The API stand-ins record every runtime's calls, so each
        // file talks with chats, channels and users no other file uses.
        test: { name: "channels", include: ["test/worker/channels/**/*.test.ts"], ...workersShared },
      },
    ],
  },
});
