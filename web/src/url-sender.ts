// Who sent a URL card and whether its page is on that server's own host: a server may send a
// person anywhere, so a page elsewhere is said plainly before they open it.

export interface UrlSender {
  /** The MCP server, by the name the deployment gave it. */
  server: string;
  /** Where that server runs, as configured. */
  host: string;
  /** True when the page to open is on another host than the server's. */
  elsewhere: boolean;
}

/** The sender Parley recorded on the request (`from`), or null for a page Parley's own tool asks for. */
export function urlSender(request: unknown, pageHost: string): UrlSender | null {
  const from = (request as { from?: unknown } | null)?.from;
  if (typeof from !== "object" || from === null) return null;
  const { server, host } = from as { server?: unknown; host?: unknown };
  if (typeof server !== "string" || typeof host !== "string") return null;
  return { server, host, elsewhere: host.toLowerCase() !== pageHost.toLowerCase() };
}
