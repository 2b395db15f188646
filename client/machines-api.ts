// HTTP calls about the person's machines (each a `parley daemon`): list them, ask one to start an
// agent in one of its folders, and stop a session. The person's own credential only.
import type { MachineView, StartMachineSessionBody } from "../src/protocol/index";
import type { InboxTarget } from "./inbox-api";
import { call } from "./session-api";

function request<T>(target: InboxTarget, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (target.credential) headers.authorization = `Bearer ${target.credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return call<T>(new URL(`/api${path}`, target.baseUrl).toString(), init, target.fetch);
}

export async function listMachines(target: InboxTarget): Promise<MachineView[]> {
  return (await request<{ machines: MachineView[] }>(target, "GET", "/machines")).machines;
}

/** Asks the machine's daemon to start the agent; 201 once it did, an ApiError with its reason if not. */
export function startOnMachine(
  target: InboxTarget,
  machineId: string,
  body: StartMachineSessionBody,
): Promise<{ sessionId: string }> {
  return request(target, "POST", `/machines/${encodeURIComponent(machineId)}/sessions`, body);
}

/** Stops a session: no more messages, its open cards withdrawn, its machine's agent ended. */
export function stopSession(target: InboxTarget, sessionId: string): Promise<unknown> {
  return request(target, "POST", `/sessions/${encodeURIComponent(sessionId)}/stop`);
}
