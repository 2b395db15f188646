// An ACP `elicitation/create` as a Parley card, and a resolved card as the ACP answer. A form is
// Parley's `form` kind (the MCP form, which ACP's mirrors field for field) and a URL request its
// `url` kind; a request Parley cannot show whole is refused with the reason, never shown in part.
import {
  CreateElicitationRequest,
  type CreateElicitationResponse,
  type ElicitationCapabilities,
} from "@agentclientprotocol/sdk";
import type { ExternalInteraction } from "../../client/client";
import {
  ElicitRequestFormParams,
  type ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  UrlElicitResult,
} from "../../src/protocol/forms/elicitation";
import { describeZodError } from "../../src/protocol/wire/errors";

/** What `parley acp` advertises: it shows both modes on every device of the person. */
export const ELICITATION_CAPABILITIES: ElicitationCapabilities = { form: {}, url: {} };

export type ElicitationMode = "form" | "url";

/** The card for one elicitation, or why Parley will not show it. */
export type ElicitationCard =
  | { ok: true; kind: ElicitationMode; request: ElicitRequestParams }
  | { ok: false; message: string };

/** The request's mode when it is one ACP defines and well formed; null for any other. */
export function elicitationMode(params: unknown): ElicitationMode | null {
  const request = params as CreateElicitationRequest;
  if (CreateElicitationRequest.isForm(request)) return "form";
  if (CreateElicitationRequest.isUrl(request)) return "url";
  return null;
}

/** The ACP session a request is scoped to; null for one scoped to a request (before any session). */
export function elicitationSessionId(params: unknown): string | null {
  const scoped = (params as { sessionId?: unknown }).sessionId;
  return typeof scoped === "string" && scoped.length > 0 ? scoped : null;
}

/**
 * ACP says an absent field and a `null` one mean the same, and `_meta` is the sender's own: both
 * go before the request meets Parley's form schema, which knows neither.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null || key === "_meta") continue;
    out[key] = withoutNulls(inner);
  }
  return out;
}

/** Reads an ACP elicitation as Parley's form or URL request, checked as any card's request is. */
export function cardForElicitation(params: unknown): ElicitationCard {
  const mode = elicitationMode(params);
  if (mode === null) return { ok: false, message: 'Parley shows only the "form" and "url" modes' };
  const raw = params as CreateElicitationRequest & { requestedSchema?: unknown; url?: unknown };
  if (mode === "url") {
    const parsed = ElicitRequestURLParams.safeParse({
      mode: "url",
      message: raw.message,
      url: raw.url,
      ...("elicitationId" in raw ? { elicitationId: raw.elicitationId } : {}),
    });
    return parsed.success
      ? { ok: true, kind: "url", request: parsed.data }
      : { ok: false, message: `a page to open that Parley will not show: ${describeZodError(parsed.error)}` };
  }
  const schema = withoutNulls(raw.requestedSchema) as Record<string, unknown>;
  const parsed = ElicitRequestFormParams.safeParse({
    mode: "form",
    message: raw.message,
    // ACP lets the schema leave out its type, which is always "object".
    requestedSchema: { type: "object", properties: {}, ...schema },
  });
  return parsed.success
    ? { ok: true, kind: "form", request: parsed.data }
    : { ok: false, message: `a form Parley cannot show: ${describeZodError(parsed.error)}` };
}

/**
 * The ACP answer for a resolved card: the person's accept (a form's values; a page's done carries
 * none), decline, or dismissal; `cancel` when no one answered (a deadline, a withdrawal).
 */
export function answerForCard(kind: ElicitationMode, state: ExternalInteraction): CreateElicitationResponse {
  const response = state.resolution?.response;
  const parsed = (kind === "url" ? UrlElicitResult : ElicitResult).safeParse(response);
  return parsed.success ? parsed.data : { action: "cancel" };
}
