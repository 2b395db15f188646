// The one refusal: thrown by a route or read back from an object's refused answer, it carries the
// same body and answers with the status its code names, extras (a retry-after) included.
import { describe, expect, it } from "vitest";
import { unwrap } from "../../../src/objects/outcome";
import { Refusal, refuse } from "../../../src/objects/refusal";
import { ERROR_STATUS, type ErrorBody } from "../../../src/protocol/wire/errors";
import { HttpError } from "../../../src/router/http-error";
import { answer } from "../../../src/session/session-refusal";

function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("a refusal", () => {
  const limited: ErrorBody = { code: "rate_limited", message: "Too many commands", retryAfterSeconds: 7 };

  it("is the router's HttpError itself, so app.onError maps every refusal in one place", () => {
    expect(new HttpError("not_found", "No such API route")).toBeInstanceOf(Refusal);
  });

  it("answers with the status its code names and the body it was given, extras included", () => {
    const refusal = Refusal.from(limited);
    expect(refusal.status).toBe(ERROR_STATUS.rate_limited);
    expect(refusal.toBody()).toEqual({ error: limited });
  });

  it("thrown in a session's entry point becomes a refused outcome with the same body", async () => {
    const outcome = await answer(() => refuse("rate_limited", "Too many commands", { retryAfterSeconds: 7 }));
    expect(outcome).toEqual({ ok: false, error: limited });
  });

  it("read back from an object's refused outcome is the same refusal a route would throw", () => {
    const thrown = thrownBy(() => unwrap({ ok: false, error: limited }));
    expect(thrown).toBeInstanceOf(Refusal);
    expect((thrown as Refusal).toBody()).toEqual(
      new HttpError("rate_limited", "Too many commands", { retryAfterSeconds: 7 }).toBody(),
    );
  });

  it("leaves a fault that is not a refusal to be thrown on, never answered as one", async () => {
    await expect(answer(() => Promise.reject(new Error("storage failed")))).rejects.toThrow("storage failed");
  });
});
