// The push services a subscription endpoint may point at: the Worker posts to every stored
// endpoint, so one from anywhere else would let a token holder make it send requests there.

/** The public Web Push services browsers subscribe through, by the host names of their endpoints. */
export const KNOWN_PUSH_SERVICES: ReadonlyArray<{ name: string; host: string; subdomains: boolean }> = [
  // Chrome, Edge on Android, Opera, Samsung Internet: https://fcm.googleapis.com/fcm/send/… and /wp/…
  { name: "Firebase Cloud Messaging", host: "fcm.googleapis.com", subdomains: false },
  // Firefox: https://updates.push.services.mozilla.com/wpush/v2/…
  { name: "Mozilla autopush", host: "updates.push.services.mozilla.com", subdomains: false },
  // Safari 16+ on macOS and iOS: https://web.push.apple.com/…; Apple asks to allow *.push.apple.com.
  { name: "Apple Web Push", host: "push.apple.com", subdomains: true },
  // Edge on Windows: https://wns2-<region>.notify.windows.com/w/?token=…
  { name: "Windows Push Notification Services", host: "notify.windows.com", subdomains: true },
];

/** The loopback hosts a dev server may push to over plain http, when PUSH_SERVICE_DOMAINS names them. */
const LOOPBACK_PUSH_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Why `endpoint` is not a known push service's, or null when it is. `extraDomains` are hosts (and
 * their subdomains) a deployment adds, such as its own autopush. `onLoopback` says the server was
 * reached on loopback (a dev server): then `http://127.0.0.1:<port>/…` is a push service too, when
 * `extraDomains` names that host — a local push service, or a test's.
 */
export function pushEndpointProblem(
  endpoint: string,
  extraDomains: readonly string[] = [],
  onLoopback = false,
): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "endpoint must be a URL";
  }
  if (url.protocol === "http:" && onLoopback && LOOPBACK_PUSH_HOSTS.has(url.hostname)) {
    if (url.username || url.password) return "endpoint must not carry a user name or password";
    if (extraDomains.includes(url.hostname)) return null;
    return `endpoint host ${url.hostname} is a local push service only where PUSH_SERVICE_DOMAINS names it`;
  }
  if (url.protocol !== "https:") return "endpoint must be https";
  if (url.username || url.password) return "endpoint must not carry a user name or password";
  if (url.port !== "") return `endpoint must use the push service's default port, not ${url.port}`;
  const host = url.hostname.toLowerCase();
  const known =
    KNOWN_PUSH_SERVICES.some(
      (service) => host === service.host || (service.subdomains && isUnder(host, service.host)),
    ) || extraDomains.some((domain) => host === domain || isUnder(host, domain));
  if (known) return null;
  const names = KNOWN_PUSH_SERVICES.map((service) => service.name).join(", ");
  return `endpoint host ${host} is not a known push service (${names})`;
}

function isUnder(host: string, domain: string): boolean {
  return host.endsWith(`.${domain}`);
}
