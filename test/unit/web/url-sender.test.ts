import { describe, expect, it } from "vitest";
import { urlSender } from "../../../web/src/url-sender";

const from = { server: "payments", host: "mcp.payments.example" };

describe("who sent a page to visit", () => {
  it("names the MCP server and finds nothing to warn about when the page is on its host", () => {
    expect(urlSender({ mode: "url", from }, "mcp.payments.example")).toEqual({ ...from, elsewhere: false });
    expect(urlSender({ mode: "url", from }, "MCP.payments.example")?.elsewhere).toBe(false);
  });

  it("warns when the page is on another host than the server's, a subdomain or port included", () => {
    expect(urlSender({ mode: "url", from }, "login.bank.example")?.elsewhere).toBe(true);
    expect(urlSender({ mode: "url", from }, "payments.example")?.elsewhere).toBe(true);
    expect(urlSender({ mode: "url", from }, "mcp.payments.example:8443")?.elsewhere).toBe(true);
  });

  it("names no server for a page one of Parley's own tools asks for, or a sender it cannot read", () => {
    expect(urlSender({ mode: "url" }, "example.com")).toBeNull();
    expect(urlSender({ mode: "url", from: { server: 3 } }, "example.com")).toBeNull();
    expect(urlSender(null, "example.com")).toBeNull();
  });
});
