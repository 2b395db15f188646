// A gateway with no credential configured (neither GATEWAY_TOKEN nor Access) answers this machine
// only: loopback decided by the URL's host and the connection's address; and even there no caller
// is a person (test/worker/access/no-person-without-credential.test.ts).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/router/app";
import { expectError } from "./access-fixtures";

const GATEWAY_TOKEN = "gateway-token-for-loopback-tests";

function deployment(vars: Record<string, string> = {}): Env {
  return { ...env, ...vars } as unknown as Env;
}

async function send(
  url: string,
  options: { method?: string; ip?: string; bearer?: string; on?: Env } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.ip) headers["cf-connecting-ip"] = options.ip;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const method = options.method ?? "GET";
  if (method === "POST") headers["content-type"] = "application/json";
  const body = method === "POST" ? "{}" : undefined;
  return app.fetch(new Request(url, { method, headers, body }), options.on ?? deployment());
}

async function expectLoopbackOnly(response: Response): Promise<void> {
  expect(response.status).toBe(403);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("forbidden");
  expect(body.error.message).toMatch(/only requests from this machine/);
  expect(body.error.message).toMatch(/GATEWAY_TOKEN/);
  expect(body.error.message).toMatch(/ACCESS_TEAM_DOMAIN/);
}

describe("a gateway with no credential configured", () => {
  it("refuses a request to a non-loopback host with 403 and says how to configure a credential", async () => {
    await expectLoopbackOnly(await send("https://parley.example.com/api/inbox", { ip: "203.0.113.7" }));
    await expectLoopbackOnly(await send("https://parley.example.com/api/sessions", { method: "POST" }));
  });

  it("refuses a loopback Host header on a connection from another address", async () => {
    await expectLoopbackOnly(await send("http://127.0.0.1:8787/api/inbox", { ip: "203.0.113.7" }));
    await expectLoopbackOnly(await send("http://localhost:8787/api/inbox", { ip: "2001:db8::1" }));
  });

  it("refuses another site's host name resolved to loopback (DNS rebinding)", async () => {
    await expectLoopbackOnly(await send("http://attacker.example:8787/api/inbox", { ip: "127.0.0.1" }));
  });

  it("serves a loopback request, as no person: the inbox answers 401", async () => {
    for (const [url, ip] of [
      ["http://127.0.0.1:8787/api/inbox", "127.0.0.1"],
      ["http://localhost:8787/api/inbox", "::1"],
      ["http://[::1]:8787/api/inbox", "::ffff:127.0.0.1"],
      ["http://127.0.0.1:8787/api/inbox", undefined],
    ] as const) {
      await expectError(await send(url, ip ? { ip } : {}), 401, "unauthorized");
    }
    const created = await send("http://127.0.0.1:8787/api/sessions", { method: "POST", ip: "127.0.0.1" });
    expect(created.status).toBe(201);
  });

  it("with ALLOW_OPEN_GATEWAY still refuses every caller from elsewhere: the flag makes no one a person", async () => {
    const open = deployment({ ALLOW_OPEN_GATEWAY: "true", ANTHROPIC_API_KEY: "sk-test" });
    await expectLoopbackOnly(
      await send("https://parley.example.com/api/sessions", { method: "POST", ip: "203.0.113.7", on: open }),
    );
    await expectLoopbackOnly(await send("https://parley.example.com/api/inbox", { on: open }));
  });
});

describe("a gateway with GATEWAY_TOKEN", () => {
  const guarded = deployment({ GATEWAY_TOKEN, ALLOW_OPEN_GATEWAY: "true" });

  it("serves any host to the token's holder", async () => {
    const response = await send("https://parley.example.com/api/inbox", {
      ip: "203.0.113.7",
      bearer: GATEWAY_TOKEN,
      on: guarded,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ person: "operator" });
  });

  it("makes no one the person without the token, not even on loopback", async () => {
    for (const url of ["http://127.0.0.1:8787/api/inbox", "https://parley.example.com/api/inbox"]) {
      await expectError(await send(url, { on: guarded }), 401, "unauthorized");
    }
  });
});
