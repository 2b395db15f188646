// The few ACP messages `parley acp` reads on their way through, checked before they are used (the
// proxy forwards every message unchanged whether or not it reads it). Fields the proxy does not
// read pass as they are; the SDK's own types describe the rest.
import type {
  AnyMessage,
  ContentBlock,
  RequestPermissionRequest,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import * as z from "zod";

const Id = z.union([z.string(), z.number()]);

export const PermissionParams = z.looseObject({
  sessionId: z.string().min(1),
  toolCall: z.looseObject({ toolCallId: z.string().min(1) }),
  options: z
    .array(
      z.looseObject({
        optionId: z.string(),
        name: z.string(),
        kind: z.enum(["allow_once", "allow_always", "reject_once", "reject_always"]),
      }),
    )
    .min(1),
});

const PromptParams = z.looseObject({
  sessionId: z.string().min(1),
  prompt: z.array(z.looseObject({ type: z.string() })),
});
const UpdateParams = z.looseObject({
  sessionId: z.string().min(1),
  update: z.looseObject({ sessionUpdate: z.string() }),
});
const SessionParams = z.looseObject({ sessionId: z.string().min(1) });
const CwdParams = z.looseObject({ cwd: z.string() });
const CancelRequestParams = z.looseObject({ requestId: Id });
const Elicitation = z.looseObject({ form: z.unknown(), url: z.unknown() }).partial();
const InitializeParams = z.looseObject({
  clientCapabilities: z.looseObject({ elicitation: Elicitation.nullish() }).optional(),
});
const InitializeResult = z.looseObject({
  agentInfo: z.looseObject({ name: z.string(), title: z.string().nullish() }).nullish(),
});

/** One JSON-RPC message, told apart by its shape. */
export type Classified =
  | { type: "request"; id: string | number; method: string; params: unknown }
  | { type: "notification"; method: string; params: unknown }
  | { type: "response"; id: string | number; ok: boolean; result: unknown };

export function classify(message: AnyMessage): Classified | null {
  const raw = message as Record<string, unknown>;
  const id = Id.safeParse(raw.id);
  if (typeof raw.method === "string") {
    return id.success
      ? { type: "request", id: id.data, method: raw.method, params: raw.params }
      : { type: "notification", method: raw.method, params: raw.params };
  }
  if (id.success) return { type: "response", id: id.data, ok: "result" in raw, result: raw.result };
  return null;
}

/** A JSON-RPC id as a map key (1 and "1" are different ids). */
export const idKey = (id: string | number): string => JSON.stringify(id);

export function permissionParams(params: unknown): RequestPermissionRequest | null {
  const parsed = PermissionParams.safeParse(params);
  return parsed.success ? (parsed.data as unknown as RequestPermissionRequest) : null;
}

export function promptParams(params: unknown): { sessionId: string; prompt: ContentBlock[] } | null {
  const parsed = PromptParams.safeParse(params);
  return parsed.success ? (parsed.data as unknown as { sessionId: string; prompt: ContentBlock[] }) : null;
}

export function updateParams(params: unknown): { sessionId: string; update: SessionUpdate } | null {
  const parsed = UpdateParams.safeParse(params);
  return parsed.success ? (parsed.data as unknown as { sessionId: string; update: SessionUpdate }) : null;
}

export function sessionIdOf(params: unknown): string | null {
  const parsed = SessionParams.safeParse(params);
  return parsed.success ? parsed.data.sessionId : null;
}

export function cancelledRequestId(params: unknown): string | number | null {
  const parsed = CancelRequestParams.safeParse(params);
  return parsed.success ? parsed.data.requestId : null;
}

export function agentInfoOf(result: unknown): { name: string; title?: string | null } | null {
  const parsed = InitializeResult.safeParse(result);
  return parsed.success ? (parsed.data.agentInfo ?? null) : null;
}

/**
 * The elicitation modes the editor shows itself (`initialize`'s client capabilities; ACP reads an
 * absent mode and a `null` one alike), and the request's params advertising both modes to the
 * agent, as `parley acp` shows any of them in Parley. Null when the params are not an initialize's.
 */
export function withElicitation(params: unknown): {
  editor: { form: boolean; url: boolean };
  params: Record<string, unknown>;
} | null {
  const parsed = InitializeParams.safeParse(params);
  if (!parsed.success) return null;
  const capabilities = parsed.data.clientCapabilities ?? {};
  const shown = capabilities.elicitation ?? {};
  const editor = { form: shown.form != null, url: shown.url != null };
  const elicitation = { ...shown, form: shown.form ?? {}, url: shown.url ?? {} };
  return { editor, params: { ...parsed.data, clientCapabilities: { ...capabilities, elicitation } } };
}

/** The working folder a request names (`session/new`, `session/load`: the folder the editor opened). */
export function cwdOf(params: unknown): string | null {
  const parsed = CwdParams.safeParse(params);
  return parsed.success ? parsed.data.cwd : null;
}
