// Environment → validated configuration, read once per Worker or Durable Object instance.
import type { Model } from "@anthropic-ai/sdk/resources/messages";
import * as z from "zod";
import { type ChannelConfigs, channelVars, readChannels } from "./config/channel-config";
import { BUILTIN_KIND_NAMES } from "./interactions/kinds/names";
import { type McpServerConfig, readMcpServers } from "./mcp/mcp-config";
import { DeadlinePolicies, unknownPolicyKinds } from "./protocol/cards/deadline-policy";
import { ApprovalPolicies } from "./protocol/grants/approval-policy";
import { DEFAULT_MAX_AGENT_DEPTH, SOCKET_COMMAND_BURST, SOCKET_COMMANDS_PER_SECOND } from "./protocol/limits";
import { describeZodError } from "./protocol/wire/errors";

export type { DiscordConfig, SlackConfig, TelegramConfig } from "./config/channel-config";

const flag = () =>
  z
    .string()
    .optional()
    .transform((value) => value === "true" || value === "1");

/** The model ids the pinned SDK names (its `Model` type also admits any other string). */
type KnownModel = Model extends infer Id
  ? Id extends string
    ? string extends Id
      ? never
      : Id
    : never
  : never;

/**
 * The model sessions use unless ANTHROPIC_MODEL names another: the current Sonnet. The type check
 * fails when an SDK upgrade drops the id; test/unit/model/default-model.test.ts fails when the SDK
 * calls it deprecated.
 */
export const DEFAULT_MODEL = "claude-sonnet-5-5" satisfies KnownModel;

/** Shortest SESSION_SECRET accepted: 256 bits, the HMAC-SHA256 key size. */
export const MIN_SESSION_SECRET_BYTES = 32;
const SESSION_SECRET_HOW_TO =
  "generate one with `openssl rand -base64 32` and set it with `npx wrangler secret put SESSION_SECRET`";

// Limits on what one session may spend: model tokens a day, and where its pushes may go.
const spendingLimitVars = () => ({
  SESSION_TOKEN_BUDGET: z.coerce.number().int().min(1_000).max(1_000_000_000_000).optional(),
  PUSH_SERVICE_DOMAINS: z
    .string()
    .regex(
      /^[a-z0-9-]+(\.[a-z0-9-]+)+(,[a-z0-9-]+(\.[a-z0-9-]+)+)*$/,
      "must be host names separated by commas, such as push.example.com",
    )
    .optional(),
});

/**
 * The environment's schema, built by the reader each time it reads (once per env object, see
 * `configFor`) and dropped after: an isolate keeps the configuration, not the schema that read it.
 */
const envSchema = () =>
  z.object({
    GATEWAY_TOKEN: z.string().min(1).optional(),
    SESSION_SECRET: z
      .string()
      .refine((value) => new TextEncoder().encode(value).byteLength >= MIN_SESSION_SECRET_BYTES, {
        message: `SESSION_SECRET must be at least ${MIN_SESSION_SECRET_BYTES} bytes (${SESSION_SECRET_HOW_TO})`,
      })
      .optional(),
    ANTHROPIC_API_KEY: z.string().min(1).optional(),
    ANTHROPIC_MODEL: z.string().min(1).default(DEFAULT_MODEL),
    ANTHROPIC_BASE_URL: z.url().optional(),
    ANTHROPIC_MAX_TOKENS: z.coerce.number().int().min(1).max(128_000).default(4_096),
    INTERACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
    MAX_TURN_ITERATIONS: z.coerce.number().int().min(1).max(500).default(25),
    MAX_FORMS_PER_TOOL_CALL: z.coerce.number().int().min(1).max(50).default(5),
    MAX_AGENT_DEPTH: z.coerce.number().int().min(1).max(16).default(DEFAULT_MAX_AGENT_DEPTH),
    SESSION_RETENTION_DAYS: z.coerce.number().positive().max(3_650).default(30),
    DECISION_RETENTION_DAYS: z.coerce.number().positive().max(3_650).default(90),
    MODEL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(5_000),
    MODEL_RETRY_GIVE_UP_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(7 * 86_400_000)
      .default(3_600_000),
    SOCKET_COMMAND_BURST: z.coerce.number().int().min(1).max(1_000_000).default(SOCKET_COMMAND_BURST),
    SOCKET_COMMANDS_PER_SECOND: z.coerce
      .number()
      .positive()
      .max(1_000_000)
      .default(SOCKET_COMMANDS_PER_SECOND),
    SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(90_000).default(15_000),
    MODEL_CONTEXT_TOKENS: z.coerce.number().int().min(1_000).max(10_000_000).default(200_000),
    ALLOW_SCRIPTED_SESSIONS: flag(),
    ALLOW_OPEN_GATEWAY: flag(),
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 public key")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 private key")
      .optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:)/, "must start with mailto: or https:")
      .optional(),
    NOTIFY_WEBHOOK_URL: z
      .url()
      .refine(webhookUrlAllowed, "must be https (http only for loopback)")
      .optional(),
    NOTIFY_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    ACCESS_TEAM_DOMAIN: z
      .string()
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, "must be a host name such as myteam.cloudflareaccess.com")
      .optional(),
    ACCESS_AUD: z.string().min(1).optional(),
    /** Where the Access team's keys are published, for `wrangler dev` only: a loopback http URL. */
    ACCESS_CERTS_URL: z
      .url()
      .refine(
        loopbackHttpUrl,
        "must be an http URL on 127.0.0.1, localhost or [::1] with no user name (for wrangler dev only)",
      )
      .optional(),
    INBOX_DISABLED: flag(),
    /** The address Parley's email comes from (the `EMAIL` send_email binding's sender): codes and escalations. */
    EMAIL_FROM: z.email("must be an email address").optional(),
    /** JSON: what card deadlines do, per kind and per tool (protocol/deadline-policy.ts). */
    DEADLINE_POLICIES: z.string().optional(),
    /** JSON: calls that need several distinct approvals (protocol/approval-policy.ts). */
    APPROVAL_POLICIES: z.string().optional(),
    ...spendingLimitVars(),
    ...channelVars(),
  });

/**
 * The variables the Worker reads, as they arrive (strings, every one optional): `Env` in env.d.ts
 * extends this, so a variable added to the schema is declared for the Worker at once.
 */
export type ConfigVars = { [Name in keyof z.input<ReturnType<typeof envSchema>> | "MCP_SERVERS"]?: string };

export interface Config {
  gatewayToken: string | null;
  /** Key for session capability tokens (SESSION_SECRET); `npm run dev` writes a random one to `.dev.vars`. */
  sessionSecret: string;
  /** Set when a key is configured; otherwise sessions use the offline demo model. */
  anthropic: { apiKey: string; baseURL: string | undefined } | null;
  model: string;
  maxTokens: number;
  interactionTimeoutMs: number;
  maxTurnIterations: number;
  /** Most forms one tool call may open with `ctx.elicit`. */
  maxFormsPerToolCall: number;
  /** Most delegated agents stacked on top of the main agent. */
  maxAgentDepth: number;
  allowScriptedSessions: boolean;
  /** Idle sessions are erased after this long without an event. */
  retentionMs: number;
  /** First wait after a model call fails for a reason that may pass (overload, rate limit, 5xx). */
  modelRetryBaseMs: number;
  /** A turn whose model stays unavailable this long fails. */
  modelRetryGiveUpMs: number;
  /** The model's context window, in tokens; requests are kept under it. */
  contextTokens: number;
  /** Commands one socket may send in a burst, and how fast that allowance refills. */
  socketCommandBurst: number;
  socketCommandsPerSecond: number;
  /** How often an idle SSE stream gets a heartbeat comment. */
  sseHeartbeatMs: number;
  /** Accept an ANTHROPIC_API_KEY without GATEWAY_TOKEN on a loopback-only gateway (it makes no one a person). */
  allowOpenGateway: boolean;
  /** Web Push VAPID keys (RFC 8292); without them the page hides "Notify this device". */
  push: { publicKey: string; privateKey: string; subject: string } | null;
  /** Signed webhook for every opened and resolved card. */
  webhook: { url: string; secret: string } | null;
  /** MCP servers sessions may use (`MCP_SERVERS`); header values already resolved from secrets. */
  mcpServers: McpServerConfig[];
  /** Cloudflare Access in front of the deployment: every request carries its signed assertion. */
  /** `certsUrl`: the team's published keys, `https://<teamDomain>/cdn-cgi/access/certs` unless overridden on loopback. */
  access: { teamDomain: string; audience: string; certsUrl: string } | null;
  /** How long a person's decision record keeps each decision, also after its session is gone. */
  decisionRetentionMs: number;
  /** Sessions do not report to their creator's inbox (tests whose alarm only their own deadlines move). */
  inboxDisabled: boolean;
  /** The deployment's deadline policies (`DEADLINE_POLICIES`); a session may override them. */
  deadlinePolicies: DeadlinePolicies | null;
  /** Rules whose calls need approvals from several distinct answerers (`APPROVAL_POLICIES`); empty: none. */
  approvalPolicies: ApprovalPolicies;
  /** Model input plus output tokens one session may use per UTC day; null for no limit. */
  sessionTokenBudget: number | null;
  /** Push service hosts (and their subdomains) accepted beside the public ones (notify/push-services.ts). */
  pushServiceDomains: string[];
  /** Email through the `EMAIL` binding (src/email/); null without `EMAIL_FROM`. */
  email: { from: string } | null;
  /** Chat platforms whose secrets are set (src/channels/); null ones are off and their routes 404. */
  channels: ChannelConfigs;
}

/** Parses the Worker environment; throws with every bad variable named. */
export function readConfig(env: ConfigVars): Config {
  const parsed = envSchema().safeParse(pickStrings(env));
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  }
  const e = parsed.data;
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new Error("Invalid configuration: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither");
  }
  if (e.NOTIFY_WEBHOOK_URL && !e.NOTIFY_WEBHOOK_SECRET) {
    throw new Error("Invalid configuration: NOTIFY_WEBHOOK_URL needs NOTIFY_WEBHOOK_SECRET to sign with");
  }
  // Never GATEWAY_TOKEN: whoever may create sessions must not be able to sign every session's tokens.
  // Nor a fixed development key: one in the source signs for anyone who reads it, even on loopback
  // (a page in the developer's browser could compute owner tokens), so `npm run dev` makes its own.
  if (!e.SESSION_SECRET) {
    throw new Error(`Invalid configuration: SESSION_SECRET is not set; ${SESSION_SECRET_HOW_TO}`);
  }
  if (Boolean(e.ACCESS_TEAM_DOMAIN) !== Boolean(e.ACCESS_AUD)) {
    throw new Error("Invalid configuration: set both ACCESS_TEAM_DOMAIN and ACCESS_AUD, or neither");
  }
  if (e.ACCESS_CERTS_URL && !e.ACCESS_TEAM_DOMAIN) {
    throw new Error("Invalid configuration: ACCESS_CERTS_URL needs ACCESS_TEAM_DOMAIN and ACCESS_AUD");
  }
  return {
    gatewayToken: e.GATEWAY_TOKEN ?? null,
    sessionSecret: e.SESSION_SECRET,
    anthropic: e.ANTHROPIC_API_KEY ? { apiKey: e.ANTHROPIC_API_KEY, baseURL: e.ANTHROPIC_BASE_URL } : null,
    model: e.ANTHROPIC_MODEL,
    maxTokens: e.ANTHROPIC_MAX_TOKENS,
    interactionTimeoutMs: e.INTERACTION_TIMEOUT_MS,
    maxTurnIterations: e.MAX_TURN_ITERATIONS,
    maxFormsPerToolCall: e.MAX_FORMS_PER_TOOL_CALL,
    maxAgentDepth: e.MAX_AGENT_DEPTH,
    allowScriptedSessions: e.ALLOW_SCRIPTED_SESSIONS,
    retentionMs: Math.round(e.SESSION_RETENTION_DAYS * 86_400_000),
    decisionRetentionMs: Math.round(e.DECISION_RETENTION_DAYS * 86_400_000),
    modelRetryBaseMs: e.MODEL_RETRY_BASE_MS,
    modelRetryGiveUpMs: e.MODEL_RETRY_GIVE_UP_MS,
    contextTokens: e.MODEL_CONTEXT_TOKENS,
    socketCommandBurst: e.SOCKET_COMMAND_BURST,
    socketCommandsPerSecond: e.SOCKET_COMMANDS_PER_SECOND,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    allowOpenGateway: e.ALLOW_OPEN_GATEWAY,
    push:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? {
            publicKey: e.VAPID_PUBLIC_KEY,
            privateKey: e.VAPID_PRIVATE_KEY,
            subject: e.VAPID_SUBJECT ?? "mailto:parley@example.invalid",
          }
        : null,
    webhook:
      e.NOTIFY_WEBHOOK_URL && e.NOTIFY_WEBHOOK_SECRET
        ? { url: e.NOTIFY_WEBHOOK_URL, secret: e.NOTIFY_WEBHOOK_SECRET }
        : null,
    mcpServers: readMcpServers({ MCP_SERVERS: env.MCP_SERVERS }),
    access:
      e.ACCESS_TEAM_DOMAIN && e.ACCESS_AUD
        ? {
            teamDomain: e.ACCESS_TEAM_DOMAIN,
            audience: e.ACCESS_AUD,
            certsUrl: e.ACCESS_CERTS_URL ?? `https://${e.ACCESS_TEAM_DOMAIN}/cdn-cgi/access/certs`,
          }
        : null,
    inboxDisabled: e.INBOX_DISABLED,
    deadlinePolicies: readDeadlinePolicies(e.DEADLINE_POLICIES),
    approvalPolicies: readApprovalPolicies(e.APPROVAL_POLICIES),
    sessionTokenBudget: e.SESSION_TOKEN_BUDGET ?? null,
    pushServiceDomains: e.PUSH_SERVICE_DOMAINS?.split(",") ?? [],
    email: e.EMAIL_FROM ? { from: e.EMAIL_FROM } : null,
    channels: readChannels(e),
  };
}

/** `DEADLINE_POLICIES`, checked whole: a bad entry fails start-up with its path named. */
function readDeadlinePolicies(raw: string | undefined): DeadlinePolicies | null {
  if (raw === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`Invalid configuration: DEADLINE_POLICIES is not JSON (${(error as Error).message})`);
  }
  const parsed = DeadlinePolicies.safeParse(json);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: DEADLINE_POLICIES: ${describeZodError(parsed.error)}`);
  }
  const unknown = unknownPolicyKinds(parsed.data, BUILTIN_KIND_NAMES);
  if (unknown.length > 0) {
    throw new Error(
      `Invalid configuration: DEADLINE_POLICIES: ${unknown.join(", ")}: no interaction kind has this name`,
    );
  }
  return parsed.data;
}

/** `APPROVAL_POLICIES`, checked whole: a bad rule fails closed, refusing every request, with its entry named. */
function readApprovalPolicies(raw: string | undefined): ApprovalPolicies {
  if (raw === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`Invalid configuration: APPROVAL_POLICIES is not JSON (${(error as Error).message})`);
  }
  const parsed = ApprovalPolicies.safeParse(json);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: APPROVAL_POLICIES: ${describeZodError(parsed.error)}`);
  }
  return parsed.data;
}

// A webhook carries answer links with session tokens: plain http is allowed only to this machine.
function webhookUrlAllowed(value: string): boolean {
  return new URL(value).protocol === "https:" || onLoopback(new URL(value));
}

function onLoopback(url: URL): boolean {
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

// Keys from anywhere else would let whoever serves them sign in as anyone. On loopback only the
// developer's own machine serves them, and a deployed Worker cannot reach loopback at all.
function loopbackHttpUrl(value: string): boolean {
  // zod's url check lets a scheme-relative value through, which `URL` refuses to parse.
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return onLoopback(url) && url.username === "" && url.password === "";
}

// Bindings (Durable Object namespaces, Fetchers) are not configuration; only strings are read.
function pickStrings(env: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (typeof value === "string" && value !== "") out[key] = value;
  }
  return out;
}

// INVARIANT: bindings never change within an isolate, so each env object is read once.
const configsByEnv = new WeakMap<object, Config>();

/** `readConfig`, once per env object: a Durable Object would otherwise parse it on every wake. */
export function configFor(env: object): Config {
  let config = configsByEnv.get(env);
  if (!config) {
    config = readConfig(env as ConfigVars);
    configsByEnv.set(env, config);
  }
  return config;
}
