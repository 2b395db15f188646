// Reads an `elicitation/create` a server sends, in either protocol: a URL request when `mode` says
// so, otherwise a form (MCP's default), each checked against what Parley can show a person.
import {
  ElicitRequestFormParams,
  type ElicitRequestParams,
  ElicitRequestURLParams,
} from "../protocol/forms/elicitation";
import { describeZodError } from "../protocol/wire/errors";

export type ReadElicitRequest = { ok: true; params: ElicitRequestParams } | { ok: false; message: string };

/**
 * `server` is who sent it, as the deployment configured that server: a URL request carries it (and
 * never what the server itself claims to be), so the card names the server and its host.
 */
export function readElicitRequest(raw: unknown, server: { name: string; url: string }): ReadElicitRequest {
  const url = typeof raw === "object" && raw !== null && (raw as { mode?: unknown }).mode === "url";
  const parsed = (url ? ElicitRequestURLParams : ElicitRequestFormParams).safeParse(raw);
  if (parsed.success) {
    if (parsed.data.mode !== "url") return { ok: true, params: parsed.data };
    const from = { server: server.name, host: new URL(server.url).host };
    return { ok: true, params: { ...parsed.data, from } };
  }
  const what = url ? "a page to open that Parley will not show" : "a form Parley cannot show";
  return { ok: false, message: `${what}: ${describeZodError(parsed.error)}` };
}
