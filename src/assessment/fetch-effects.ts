// What a fetch reaches: the host of its URL. A host on the agent's own machine or network, or a
// cloud's metadata address, is high: a fetch there reads what the internet cannot.
import { type Finding, finding } from "./assessment";

const FETCH_TOOLS: ReadonlySet<string> = new Set(["WebFetch", "fetch_url"]);

export function isFetchTool(toolName: string): boolean {
  return FETCH_TOOLS.has(toolName);
}

/** The findings of a fetch tool's call. */
export function fetchEffects(input: unknown): Finding[] {
  const url = typeof input === "object" && input !== null ? (input as { url?: unknown }).url : undefined;
  if (typeof url !== "string") return [finding("unread", "medium", "names no URL Parley can read")];
  return [networkFinding(url, "fetches")];
}

/** A network finding for a URL or a bare host (`example.com`, `git@github.com:x`). */
export function networkFinding(target: string, verb: string): Finding {
  const host = hostOf(target);
  if (host === null) return finding("network", "medium", `${verb} ${target}, whose host Parley cannot read`);
  if (privateHost(host)) return finding("network", "high", `${verb} ${host}, a private or local address`);
  return finding("network", "medium", `${verb} ${host}`);
}

/** The host a URL or `user@host:path` names, lower-cased; null when there is none. */
export function hostOf(target: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target : null;
  if (withScheme) {
    try {
      const host = new URL(withScheme).hostname.toLowerCase();
      return host === "" ? null : host.replace(/^\[|\]$/g, "");
    } catch {
      return null;
    }
  }
  const scp = /^(?:[^@/\s]+@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}|localhost|\d{1,3}(?:\.\d{1,3}){3}):/.exec(target);
  if (scp?.[1]) return scp[1].toLowerCase();
  const bare =
    /^(?:[^@/\s]+@)?([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}|localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:\/|$)/.exec(
      target,
    );
  return bare?.[1]?.toLowerCase() ?? null;
}

function privateHost(host: string): boolean {
  if (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal")
  )
    return true;
  if (host === "::1" || host.startsWith("fe80:") || host.startsWith("fc") || host.startsWith("fd"))
    return host.includes(":");
  const octets = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
  if (!octets) return false;
  const [a = 0, b = 0] = octets;
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}
