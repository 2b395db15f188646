import { describe, expect, it } from "vitest";
import { RETRY_DELAYS_MS, retryAt, retryUntilDelivered } from "../../../src/notify/delivery-rows";

describe("the one retry schedule", () => {
  it("retries a delivery after each of its delays in turn, then gives it up", () => {
    const delays = RETRY_DELAYS_MS.map((_, i) => (retryAt(i + 1, 1_000) ?? 0) - 1_000);
    expect(delays).toEqual([...RETRY_DELAYS_MS]);
    expect(retryAt(RETRY_DELAYS_MS.length + 1, 1_000)).toBeNull();
  });

  it("retries a row that must arrive on the same delays, repeating the last for ever", () => {
    const delays = [1, 2, 3, 4, 5, 6, 50].map((attempts) => retryUntilDelivered(attempts, 1_000) - 1_000);
    const last = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1];
    expect(delays).toEqual([...RETRY_DELAYS_MS, last, last]);
  });
});
