// The one exception type HTTP handlers throw; `app.onError` maps it to `{ error: { code, message } }`.
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "../protocol/errors";

export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Omit<ErrorBody, "code" | "message"> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  static from(body: ErrorBody): HttpError {
    const { code, message, ...extra } = body;
    return new HttpError(code, message, extra);
  }

  toBody(): { error: ErrorBody } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}
