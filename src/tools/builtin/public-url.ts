// Decides whether fetch_url may go to a URL: http(s) only, and never an internal host or an address
// outside public unicast space, so an agent cannot use the gateway to probe private networks or
// cloud metadata endpoints. Address ranges come from ipaddr.js (IANA special-purpose registries).
import ipaddr from "ipaddr.js";

/** A URL fit to fetch, or the reason it is refused. */
export type PublicUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const LOCAL_NAMES = new Set(["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"]);
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".lan", ".intranet"];

/**
 * IPv6 ranges that only carry an IPv4 address, each of which a gateway turns into a connection to
 * that address: judged by the IPv4 address inside (the library's `toIPv4Address` covers only the
 * mapped form, so the others are unpacked here).
 */
const CARRIES_IPV4 = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4"]);

/**
 * Parses `raw` and refuses anything but a public http(s) URL. The WHATWG parser has already
 * normalised odd IPv4 spellings (`2130706433`, `0x7f.1`) to dotted form, so checking the
 * parsed hostname catches them too. Names that merely resolve to private addresses cannot be
 * seen from here; the platform's own egress rules cover those.
 */
export function checkPublicUrl(raw: string): PublicUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `"${raw}" is not a valid absolute URL.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `Only http and https URLs can be fetched, not ${url.protocol}` };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "URLs with embedded credentials are not fetched." };
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (isLocalHost(host)) {
    return { ok: false, reason: `Refusing to fetch ${url.host}: it is a local or private network address.` };
  }
  return { ok: true, url };
}

function isLocalHost(host: string): boolean {
  if (host === "" || LOCAL_NAMES.has(host)) return true;
  if (host.startsWith("[")) return !isPublicIpv6(host.slice(1, -1));
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return !isPublicIpv4(ipaddr.IPv4.parse(host));
  // A name without a dot is resolved through the resolver's search list: an intranet name.
  if (!host.includes(".")) return true;
  return LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** Only plain unicast space: private, loopback, link-local, CGNAT, benchmarking, reserved… are not. */
function isPublicIpv4(address: ipaddr.IPv4): boolean {
  return address.range() === "unicast";
}

function isPublicIpv6(text: string): boolean {
  if (!ipaddr.IPv6.isValid(text)) return false; // unparseable: refuse rather than guess
  const address = ipaddr.IPv6.parse(text);
  if (address.zoneId !== undefined) return false;
  const range = address.range();
  const parts = address.parts;
  // The deprecated IPv4-compatible form (::a.b.c.d) is "unicast" to the library, yet reaches IPv4.
  if (range === "unicast") return !parts.slice(0, 6).every((part) => part === 0);
  if (!CARRIES_IPV4.has(range)) return false; // Teredo, site-local, ULA, multicast, reserved, …
  // The local-use NAT64 prefix 64:ff9b:1::/48 only reaches translators inside a private network,
  // and where it puts the IPv4 address depends on the operator's prefix length.
  if (range === "rfc6052" && parts[2] !== 0) return false;
  const [high = 0, low = 0] = range === "6to4" ? parts.slice(1, 3) : parts.slice(6, 8);
  return isPublicIpv4(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]));
}
