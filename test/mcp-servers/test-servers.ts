// The real MCP servers the worker and browser tests talk to, on loopback ports, plus a small
// control endpoint through which tests (running inside workerd) restart or kill them.
import { createChangingHandler } from "./changing-server";
import { type EverythingProcess, startEverything } from "./everything-process";
import { createMrtrHandler, type RecordedCall } from "./mrtr-server";
import { type RunningServer, serveFetch } from "./node-fetch-server";

declare module "vitest" {
  interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the control endpoint of the test MCP servers. */
    mcpControlUrl: string;
    /** The `MCP_SERVERS` value the Worker under test was given. */
    mcpServers: string;
  }
}

export interface TestServerPorts {
  everything: number;
  killable: number;
  mrtr: number;
  garbage: number;
  /** Nothing ever listens here. */
  down: number;
  control: number;
}

/** The `MCP_SERVERS` value that points at the test servers. */
export function testMcpServers(ports: TestServerPorts): string {
  const at = (port: number) => `http://127.0.0.1:${port}/mcp`;
  // Sessions pick these by name, so the tests that do not use MCP see none of them.
  const servers = [
    {
      name: "everything",
      url: at(ports.everything),
      timeoutMs: 10_000,
      // Both are annotated read-only; this deployment wants a person to approve them anyway.
      risk: { echo: { risk: "network" }, "get-sum": { risk: "network" } },
    },
    // Through the control endpoint, which tells a test when a call has reached the server.
    { name: "killable", url: `http://127.0.0.1:${ports.control}/killable/mcp`, timeoutMs: 10_000 },
    { name: "mrtr", url: at(ports.mrtr), timeoutMs: 1_500, risk: { "get.time": { risk: "network" } } },
    { name: "garbage", url: at(ports.garbage), timeoutMs: 3_000 },
    // server-everything again, behind a proxy that keeps every message the client sent it.
    { name: "recorded", url: `http://127.0.0.1:${ports.control}/everything/mcp`, timeoutMs: 10_000 },
    // server-everything again, where the deployment declares the elicitation demo safe to repeat.
    {
      name: "retrying",
      url: at(ports.everything),
      timeoutMs: 10_000,
      risk: { "trigger-elicitation-request": { idempotent: true } },
    },
    { name: "changing", url: `http://127.0.0.1:${ports.mrtr}/changing/mcp`, timeoutMs: 3_000 },
    { name: "down", url: at(ports.down), timeoutMs: 3_000 },
  ];
  // These test servers' hints are the tests' own, so the deployment trusts them; `untrusted` is the
  // mrtr server again, whose `drop-table` claims to be read-only, as any server could.
  const trusted = servers.map((server) => ({ ...server, trustAnnotations: true }));
  const untrusted = { name: "untrusted", url: at(ports.mrtr), timeoutMs: 3_000 };
  return JSON.stringify([...trusted, untrusted].map((server) => ({ ...server, byDefault: false })));
}

export async function startTestServers(ports: TestServerPorts): Promise<() => Promise<void>> {
  const calls: RecordedCall[] = [];
  const mrtr = createMrtrHandler(calls);
  const changing = createChangingHandler();
  const sent: unknown[] = [];
  const everything = await startEverything(ports.everything);
  let killable: EverythingProcess | null = await startEverything(ports.killable);
  const killableCalls = new CallSignal();
  const servers: RunningServer[] = [
    await serveFetch(ports.mrtr, (request) =>
      new URL(request.url).pathname.startsWith("/changing/")
        ? changing.handler.fetch(request)
        : mrtr.fetch(request),
    ),
    // Speaks MCP until a tool is called, then answers with a body that is not JSON-RPC at all.
    await serveFetch(ports.garbage, async (request) => {
      const body = request.method === "POST" ? await request.clone().text() : "";
      if (body.includes('"tools/call"')) {
        return new Response('{"jsonrpc":"2.0","id":', { headers: { "content-type": "application/json" } });
      }
      return mrtr.fetch(request);
    }),
    await serveFetch(ports.control, async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === "/everything/mcp") return recordAndForward(request, ports.everything, sent);
      if (pathname === "/killable/mcp") return killableCalls.forward(request, ports.killable);
      switch (`${request.method} ${pathname}`) {
        case "POST /killable/kill":
          await killable?.stop();
          killable = null;
          killableCalls.reset();
          return Response.json({ ok: true });
        case "POST /killable/start":
          await killable?.stop();
          killable = await startEverything(ports.killable);
          killableCalls.reset();
          return Response.json({ ok: true });
        case "GET /killable/running-call":
          return (await killableCalls.running(10_000))
            ? Response.json({ ok: true })
            : new Response("no tool call reached the server", { status: 504 });
        case "GET /mrtr/calls":
          return Response.json(calls);
        case "GET /everything/sent":
          return Response.json(sent);
        case "POST /changing/reset":
          changing.reset();
          return Response.json({ ok: true });
        case "POST /mrtr/reset":
          calls.length = 0;
          return Response.json({ ok: true });
        default:
          return new Response("no such control route", { status: 404 });
      }
    }),
  ];
  return async () => {
    await Promise.all([everything.stop(), killable?.stop(), ...servers.map((server) => server.close())]);
  };
}

/** Passes one request on to server-everything, keeping the JSON-RPC message the client sent. */
async function recordAndForward(request: Request, port: number, sent: unknown[]): Promise<Response> {
  const body = request.method === "POST" ? await request.text() : undefined;
  if (body) sent.push(JSON.parse(body));
  return forward(request, port, body);
}

/**
 * Forwards to a server-everything and says when a `tools/call` is running there: its answer's
 * headers came back (the server opened the call's stream) and its body has not ended yet.
 */
class CallSignal {
  private started = 0;
  private readonly waiters = new Set<() => void>();

  async forward(request: Request, port: number): Promise<Response> {
    const body = request.method === "POST" ? await request.text() : undefined;
    const answer = await forward(request, port, body);
    if (body?.includes('"tools/call"')) {
      this.started += 1;
      for (const wake of this.waiters) wake();
    }
    return answer;
  }

  /** Resolves true once a call is running (at once if one already is), or false after `timeoutMs`. */
  running(timeoutMs: number): Promise<boolean> {
    if (this.started > 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }

  /** The server was stopped or restarted: no call runs there any more. */
  reset(): void {
    this.started = 0;
  }
}

async function forward(request: Request, port: number, body: string | undefined): Promise<Response> {
  const headers = new Headers(request.headers);
  for (const name of ["host", "connection", "content-length"]) headers.delete(name);
  const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: request.method,
    headers,
    body,
    signal: request.signal,
  });
  const out = new Headers(answer.headers);
  for (const name of ["content-encoding", "content-length", "transfer-encoding", "connection"])
    out.delete(name);
  return new Response(answer.body, { status: answer.status, headers: out });
}
