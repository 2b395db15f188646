// Machines: the person's own computers, each running `parley daemon` with one agent key. The wire
// between a daemon and its person's Machines object, and the person's HTTP bodies about machines.
// The daemon keeps authority: what it advertises is what its own config allows, and it checks again.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { SessionId } from "../session/session";
import { AgentKeyId } from "./agent-keys";

/** The header the Worker names the (already checked) machine with when it forwards a daemon's socket. */
export const MACHINE_HEADER = "x-parley-machine";

/** A machine is named by the id of the agent key its daemon holds. */
export const MachineId = AgentKeyId;

/** An agent's name in a daemon's config: a short word the person picks from. */
export const MachineAgentName = lazySchema(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, "an agent name is 1–40 letters, digits, '.', '_' or '-'"),
);

export const MachineProtocol = lazySchema(() => z.enum(["acp", "claude-code"]));
export type MachineProtocol = z.infer<typeof MachineProtocol>;

/** An absolute folder on the machine, as its config lists it. */
export const MachineFolder = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(1024)
    .regex(/^\//, "a folder is an absolute path")
    .refine((path) => !path.split("/").includes(".."), "a folder may not contain '..'"),
);

export const MAX_MACHINE_AGENTS = 20;
export const MAX_MACHINE_FOLDERS = 50;

/** What a daemon tells its Machines object when it connects (and again after any reconnect). */
export const MachineHello = lazySchema(() =>
  z.strictObject({
    type: z.literal("hello"),
    label: z.string().trim().min(1).max(80),
    agents: z
      .array(z.strictObject({ name: MachineAgentName, protocol: MachineProtocol }))
      .max(MAX_MACHINE_AGENTS),
    folders: z.array(MachineFolder).max(MAX_MACHINE_FOLDERS),
  }),
);
export type MachineHello = z.infer<typeof MachineHello>;

/** The daemon's answer to a start: it started the agent, or refused and says why. */
export const MachineStartAck = lazySchema(() =>
  z.strictObject({
    type: z.literal("start_ack"),
    sessionId: SessionId,
    started: z.boolean(),
    reason: z.string().max(500).optional(),
  }),
);
export type MachineStartAck = z.infer<typeof MachineStartAck>;

/** A session's agent process ended on the machine (stopped, or exited by itself). */
export const MachineSessionEnded = lazySchema(() =>
  z.strictObject({
    type: z.literal("ended"),
    sessionId: SessionId,
    code: z.number().int().nullable(),
  }),
);

/** Every frame a daemon may send. */
export const DaemonFrame = lazySchema(() =>
  z.discriminatedUnion("type", [MachineHello, MachineStartAck, MachineSessionEnded]),
);
export type DaemonFrame = z.infer<typeof DaemonFrame>;

/** `POST /api/machines/:machineId/sessions`: which agent, in which folder, told what first. */
export const StartMachineSessionBody = lazySchema(() =>
  z.strictObject({
    agent: MachineAgentName,
    folder: MachineFolder,
    text: z.string().trim().min(1, "text must not be empty").max(20_000),
    /** Run in a fresh git worktree of the folder rather than the folder itself. */
    worktree: z.boolean().optional(),
  }),
);
export type StartMachineSessionBody = z.infer<typeof StartMachineSessionBody>;

/** What the Machines object sends a daemon: start an agent for a session, or stop one. */
export const MachineStart = lazySchema(() =>
  StartMachineSessionBody.extend({
    type: z.literal("start"),
    sessionId: SessionId,
    /** The session's agent link: the only credential the started bridge gets. Never stored. */
    agentLink: z.string().url(),
    protocol: MachineProtocol,
  }),
);
export type MachineStart = z.infer<typeof MachineStart>;

export const MachineStop = lazySchema(() =>
  z.strictObject({ type: z.literal("stop"), sessionId: SessionId }),
);
export type MachineStop = z.infer<typeof MachineStop>;

/** The answer to a hello: the machine is listed with what it advertised (its id is its key's). */
export const MachineRegistered = lazySchema(() =>
  z.strictObject({ type: z.literal("registered"), machineId: MachineId }),
);

export const MachineCommand = lazySchema(() =>
  z.discriminatedUnion("type", [MachineStart, MachineStop, MachineRegistered]),
);
export type MachineCommand = z.infer<typeof MachineCommand>;

/** A machine as the person sees it listed (`GET /api/machines`). */
export const MachineView = lazySchema(() =>
  z.object({
    machineId: MachineId,
    label: z.string(),
    online: z.boolean(),
    agents: z.array(z.object({ name: z.string(), protocol: MachineProtocol })),
    folders: z.array(z.string()),
    seenAt: z.number(),
  }),
);
export type MachineView = z.infer<typeof MachineView>;
