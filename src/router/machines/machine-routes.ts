// `/api/machines`: the person's machines (each a `parley daemon`) and sessions started on them.
// A daemon connects with its agent key (the one route besides session creation a key may use);
// only the person in person lists machines or asks one to start an agent.
import { type Context, Hono } from "hono";
import { logSecurityEvent } from "../../log/security-log";
import { unwrap } from "../../objects/outcome";
import { MACHINE_HEADER, MachineId, StartMachineSessionBody } from "../../protocol/machines/machines";
import type { ErrorBody } from "../../protocol/wire/errors";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import { newSessionId, signSessionToken } from "../../tokens/session-token";
import { signShareToken } from "../../tokens/share-token";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";
import { readJsonBody } from "../read-json-body";
import { machinesStub } from "./machines-stub";
import { stopSession } from "./session-stop-route";

export const machineRoutes = new Hono<AppEnv>();

/** The person in person: never an inbox link, never an agent key. */
function personInPerson(c: Context<AppEnv>, what: string): string {
  if (c.get("agentKey")) throw new HttpError("forbidden", `An agent key may not ${what}`);
  requireInPerson(c, what);
  return personOf(c);
}

// The daemon's socket: its agent key was checked by src/router/guards/agent-key-guard.ts.
machineRoutes.get("/connect", async (c) => {
  const key = c.get("agentKey");
  if (!key) throw new HttpError("forbidden", "Only a parley daemon's agent key connects as a machine");
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
    throw new HttpError("invalid_input", "Expected a WebSocket upgrade request");
  const forwarded = new Request(new URL("/machines/connect", c.req.url), {
    headers: { upgrade: "websocket", [MACHINE_HEADER]: key.keyId },
  });
  const response = await machinesStub(c.env, key.person).fetch(forwarded);
  if (response.status === 101) return new Response(null, { status: 101, webSocket: response.webSocket });
  throw new HttpError("invalid_input", "The machine's connection was refused");
});

machineRoutes.get("/", async (c) => {
  const person = personInPerson(c, "list machines");
  return c.json({ machines: await machinesStub(c.env, person).list() });
});

machineRoutes.post("/:machineId/sessions", async (c) => {
  const person = personInPerson(c, "start sessions on a machine");
  const machineId = MachineId.safeParse(c.req.param("machineId"));
  if (!machineId.success) throw new HttpError("not_found", "No such machine");
  const body = await readJsonBody(c, StartMachineSessionBody);
  const machines = machinesStub(c.env, person);
  // Refused before anything is made: a bad request changes nothing.
  const protocol = orThrow(await machines.check(machineId.data, body));
  const machine = (await machines.list()).find((one) => one.machineId === machineId.data)?.label ?? null;
  const { sessionId, agentLink } = await createMachineSession(c, person, machineId.data, body, machine);
  const started = await machines.start(machineId.data, {
    type: "start",
    sessionId,
    agentLink,
    protocol,
    ...body,
  });
  console.log(
    JSON.stringify({ event: "machine_start", machineId: machineId.data, sessionId, ok: started.ok }),
  );
  if (!started.ok) {
    // Nothing runs for it: the session says it was stopped rather than waiting for an agent.
    await stopSession(c.env, person, sessionId);
    throw HttpError.from(started.error);
  }
  return c.json({ sessionId }, 201);
});

function orThrow<T>(outcome: { ok: true; result: T } | { ok: false; error: ErrorBody }): T {
  if (!outcome.ok) throw HttpError.from(outcome.error);
  return outcome.result;
}

/**
 * An external session of the person's, made for the machine's agent key: its agent link is noted
 * under the key, so revoking the key ends it, and it is the only credential the daemon passes on.
 */
async function createMachineSession(
  c: Context<AppEnv>,
  person: string,
  keyId: string,
  body: StartMachineSessionBody,
  machine: string | null,
): Promise<{ sessionId: string; agentLink: string }> {
  const secret = c.get("config").sessionSecret;
  const sessionId = newSessionId();
  const origin = new URL(c.req.url).origin;
  const token = await signSessionToken(secret, sessionId);
  unwrap(
    await sessionStub(c.env, sessionId).create({
      sessionId,
      permissionMode: "default",
      systemPrompt: null,
      script: null,
      interactionTimeoutMs: null,
      shareUrl: `${origin}/#/s/${sessionId}?token=${token}`,
      creator: person,
      agent: {
        name: body.agent,
        title: titleOf(body.text),
        key: null,
        agentKeyId: keyId,
        // A worktree's folder is the daemon's to pick: its bridge's first card reports it.
        folder: body.worktree ? null : body.folder,
        machine,
      },
    }),
  );
  const link = unwrap(
    await sessionStub(c.env, sessionId).ensureAgentLink(
      { linkId: newSessionId(), label: body.agent },
      newSessionId(),
    ),
  );
  const live = await inboxStub(c.env, person).noteAgentLink(keyId, { sessionId, linkId: link.linkId });
  if (!live) {
    logSecurityEvent("credential_refused", { reason: "agent_key_revoked" });
    throw new HttpError("forbidden", "This machine's agent key was revoked");
  }
  const agentToken = await signShareToken(secret, sessionId, { ...link, role: "agent" });
  return { sessionId, agentLink: `${origin}/#/s/${sessionId}?token=${agentToken}` };
}

/** The session's title: the first line of the first message, cut to fit. */
function titleOf(text: string): string {
  const line = text.split("\n")[0]?.trim() ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
