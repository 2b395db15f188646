// Where the links a chat message carries point: the configured public origin, else the origin a
// request the platform signed reached. Any request names whatever Host it likes, so one that was
// not verified never sets it.

/** The origin links use, given the configured one and a request whose signature was verified. */
export function linkOrigin(publicOrigin: string | null, verified: Request): string {
  return publicOrigin ?? new URL(verified.url).origin;
}

/** The origin a bot's handlers build links on, learnt from the requests it verified. */
export class LinkOrigin {
  // INVARIANT: written only once a request's signature is verified, and every verified request of
  // one deployment arrives at its origin: an instance that lost it learns it again from the request
  // it is verifying, before any handler runs.
  private learnt = "";

  constructor(private readonly publicOrigin: string | null) {}

  /** `request`'s signature was verified: its origin may be linked to. */
  verified(request: Request): void {
    this.learnt = linkOrigin(this.publicOrigin, request);
  }

  get value(): string {
    return this.publicOrigin ?? this.learnt;
  }
}

/** Whether `given` is `expected`, compared in constant time (a webhook's shared secret). */
export function sameSecret(given: string | null, expected: string): boolean {
  const a = new TextEncoder().encode(given ?? "");
  const b = new TextEncoder().encode(expected);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}
