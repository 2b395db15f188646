// The network edge of the notify tests: Miniflare sends every outbound fetch of the Worker here
// (in Node). Each test scripts answers for its own made-up host and reads back what was sent, through
// the control host, so push services and webhook receivers are real HTTP peers, not stubbed libraries.

import { CONTROL_HOST } from "./notify-bindings.ts";

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const recorded = new Map<string, Recorded[]>();
/** Answers to give, in order, to requests for `host` whose body contains `contains`. */
const scripted: Array<{ host: string; contains: string; statuses: number[] }> = [];

/** Miniflare's `outboundService`. */
export async function outboundRecorder(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname === CONTROL_HOST) return control(url, request);
  const bytes = new Uint8Array(await request.arrayBuffer());
  const list = recorded.get(url.host) ?? [];
  list.push({
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body: Buffer.from(bytes).toString("base64"),
  });
  recorded.set(url.host, list);
  const text = new TextDecoder().decode(bytes);
  const script = scripted.find((entry) => entry.host === url.host && text.includes(entry.contains));
  const status = script?.statuses.shift() ?? 201;
  return new Response(status >= 400 ? `answer ${status}` : null, { status });
}

async function control(url: URL, request: Request): Promise<Response> {
  const host = url.searchParams.get("host") ?? "";
  if (url.pathname === "/script" && request.method === "POST") {
    const statuses = (await request.json()) as number[];
    scripted.push({ host, contains: url.searchParams.get("contains") ?? "", statuses });
    return new Response(null, { status: 204 });
  }
  if (url.pathname === "/requests") return Response.json(recorded.get(host) ?? []);
  return new Response("unknown control route", { status: 404 });
}
