import { describe, expect, it } from "vitest";
import { describeDuration } from "../../../src/interactions/describe-duration";

describe("describeDuration", () => {
  it("words the default ten-minute timeout as people say it", () => {
    expect(describeDuration(600_000)).toBe("10 minutes");
  });

  it("uses the singular for exactly one unit", () => {
    expect(describeDuration(1_000)).toBe("1 second");
    expect(describeDuration(60_000)).toBe("1 minute");
    expect(describeDuration(3_600_000)).toBe("1 hour");
  });

  it("words the short timeouts used in tests truthfully", () => {
    expect(describeDuration(2_000)).toBe("2 seconds");
    expect(describeDuration(1_500)).toBe("1.5 seconds");
    expect(describeDuration(250)).toBe("250 milliseconds");
    expect(describeDuration(1)).toBe("1 millisecond");
  });

  it("combines units for lengths that are not whole minutes or hours", () => {
    expect(describeDuration(90_000)).toBe("1 minute and 30 seconds");
    expect(describeDuration(5_400_000)).toBe("1 hour and 30 minutes");
    expect(describeDuration(3_661_000)).toBe("1 hour, 1 minute and 1 second");
  });

  it("refuses lengths that are not durations", () => {
    expect(() => describeDuration(-1)).toThrow(RangeError);
    expect(() => describeDuration(Number.NaN)).toThrow(RangeError);
    expect(() => describeDuration(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
