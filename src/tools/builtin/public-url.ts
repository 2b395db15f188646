// Decides whether fetch_url may go to a URL: http(s) only, and never an obviously internal host,
// so an agent cannot use the gateway to probe private networks or cloud metadata endpoints.

/** A URL fit to fetch, or the reason it is refused. */
export type PublicUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const LOCAL_NAMES = new Set(["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"]);
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa"];

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
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  if (host.startsWith("[")) return isPrivateIpv6(host.slice(1, -1));
  const ipv4 = parseIpv4(host);
  return ipv4 !== null && isPrivateIpv4(ipv4);
}

function parseIpv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

function isPrivateIpv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 || // "this network"; 0.0.0.0 reaches the local machine
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, including cloud metadata at 169.254.169.254
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224 // multicast and reserved
  );
}

function isPrivateIpv6(address: string): boolean {
  const groups = expandIpv6(address);
  if (groups === null) return true; // unparseable: refuse rather than guess
  const [first = 0] = groups;
  const allZeroBefore = (index: number) => groups.slice(0, index).every((group) => group === 0);
  if (allZeroBefore(7) && (groups[7] === 0 || groups[7] === 1)) return true; // :: and ::1
  // The local-use NAT64 prefix 64:ff9b:1::/48 only reaches translators inside a private network,
  // and where it puts the IPv4 address depends on the operator's prefix length.
  if (first === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return true;
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== null) return isPrivateIpv4(ipv4);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 // multicast
  );
}

/**
 * The IPv4 address inside an address that only carries one: IPv4-mapped (::ffff:a.b.c.d), the
 * deprecated IPv4-compatible form (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::),
 * each of which a gateway turns into a connection to that IPv4 address.
 */
function embeddedIpv4(groups: number[]): number[] | null {
  const [first = 0, second = 0] = groups;
  const zeroFrom = (start: number, end: number) => groups.slice(start, end).every((group) => group === 0);
  const octets = (high = 0, low = 0) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  if (zeroFrom(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return octets(groups[6], groups[7]);
  if (first === 0x64 && second === 0xff9b && zeroFrom(2, 6)) return octets(groups[6], groups[7]);
  if (first === 0x2002) return octets(groups[1], groups[2]);
  return null;
}

/** The eight 16-bit groups of a textual IPv6 address (as normalised by the URL parser). */
function expandIpv6(address: string): number[] | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string | undefined) =>
    half ? half.split(":").map((group) => Number.parseInt(group, 16)) : [];
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}
