// HTTP calls of a person's grants and decision record: list, make and revoke grants, page through
// decisions, and export them. The credential is the gateway token, or none (Access, or local).

import type { CreateGrantBody, GrantView } from "../src/protocol/grants/grants";
import type { DecisionPage } from "../src/protocol/inbox/decisions";
import type { InboxTarget } from "./inbox-api";
import { ApiError, call } from "./session-api";

function init(target: InboxTarget, method: string, body?: unknown): RequestInit {
  const headers: Record<string, string> = {};
  if (target.credential) headers.authorization = `Bearer ${target.credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

const url = (target: InboxTarget, path: string) => new URL(`/api${path}`, target.baseUrl).toString();

export async function listGrants(target: InboxTarget): Promise<GrantView[]> {
  return (await call<{ grants: GrantView[] }>(url(target, "/grants"), init(target, "GET"), target.fetch))
    .grants;
}

export function createGrant(target: InboxTarget, body: CreateGrantBody): Promise<GrantView> {
  return call(url(target, "/grants"), init(target, "POST", body), target.fetch);
}

export function revokeGrant(target: InboxTarget, grantId: string): Promise<GrantView> {
  return call(url(target, `/grants/${encodeURIComponent(grantId)}`), init(target, "DELETE"), target.fetch);
}

/** `GET /api/decisions`: a page after `after`, optionally for one session or tool. */
export function fetchDecisions(
  target: InboxTarget,
  query: { after?: number; limit?: number; session?: string; tool?: string },
): Promise<DecisionPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== "") params.set(key, String(value));
  const search = params.size > 0 ? `?${params}` : "";
  return call(url(target, `/decisions${search}`), init(target, "GET"), target.fetch);
}

/** The whole kept record as a file (CSV or JSON), fetched with the credential. */
export async function exportDecisions(target: InboxTarget, format: "csv" | "json"): Promise<Blob> {
  const response = await (target.fetch ?? fetch)(
    url(target, `/decisions/export?format=${format}`),
    init(target, "GET"),
  );
  if (!response.ok)
    throw new ApiError(response.status, "http_error", `Export failed: HTTP ${response.status}`);
  return response.blob();
}
