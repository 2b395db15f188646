// The one refusal: whatever says no (a route, an object's RPC method, a budget) throws a Refusal
// with the error body the person reads. The router maps it to its HTTP status in `app.onError`; an
// object's entry point turns it into a refused Outcome, which sockets send as an error frame.
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "../protocol/wire/errors";

export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** What the body carries beside its code and message (`retryAfterSeconds`, …). */
    readonly extra: Omit<ErrorBody, "code" | "message"> = {},
  ) {
    super(message);
    this.name = "Refusal";
  }

  /** The refusal an error body states (an object's refused Outcome, read by the Worker). */
  static from(body: ErrorBody): Refusal {
    const { code, message, ...extra } = body;
    return new Refusal(code, message, extra);
  }

  /** The HTTP status its code answers with (`ERROR_STATUS`). */
  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** The error body: what a response, a refused Outcome and a socket's error frame carry. */
  get body(): ErrorBody {
    return { code: this.code, message: this.message, ...this.extra };
  }

  toBody(): { error: ErrorBody } {
    return { error: this.body };
  }
}

/** Stops the caller with this refusal. */
export function refuse(code: ErrorCode, message: string, extra?: Omit<ErrorBody, "code" | "message">): never {
  throw new Refusal(code, message, extra);
}
