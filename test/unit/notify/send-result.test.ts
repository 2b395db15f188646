import { describe, expect, it } from "vitest";
import { MAX_ERROR_BODY_BYTES, resultOf } from "../../../src/notify/send-result";

/** A body that never ends, counting how many bytes were pulled from it. */
function endlessBody(): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const chunk = new TextEncoder().encode("x".repeat(256));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, pulled: () => pulled };
}

describe("an error answer from a push service or a webhook", () => {
  it("is read only up to 1 KiB, however much the receiver sends", async () => {
    const { body, pulled } = endlessBody();
    const result = await resultOf(new Response(body, { status: 500 }));
    expect(result).toMatchObject({ kind: "retry", httpStatus: 500 });
    expect(result.kind === "retry" && result.error).toBe("x".repeat(200));
    // The stream's own queue may run one chunk ahead of what was read.
    expect(pulled()).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 2 * 256);
  });

  it("keeps a short error body whole", async () => {
    const result = await resultOf(new Response("bad subscription", { status: 400 }));
    expect(result).toEqual({ kind: "failed", httpStatus: 400, error: "bad subscription" });
  });
});
