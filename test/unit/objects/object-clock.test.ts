import { describe, expect, it } from "vitest";
import { ObjectClock } from "../../../src/objects/object-clock";

describe("the session's clock", () => {
  it("tells the wall clock's time plus what a test moved it, also when its now is handed on alone", () => {
    const clock = new ObjectClock();
    clock.advance(5_000);
    const handedOn = clock.now;
    const before = Date.now();
    const told = handedOn();
    expect(Number.isFinite(told)).toBe(true);
    expect(told).toBeGreaterThanOrEqual(before + 5_000);
    expect(told).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it("refuses to move backwards and moves to a later time only", () => {
    const clock = new ObjectClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    const later = clock.now() + 60_000;
    clock.advanceTo(later);
    expect(clock.now()).toBeGreaterThanOrEqual(later);
    clock.advanceTo(later - 30_000);
    expect(clock.now()).toBeGreaterThanOrEqual(later);
  });
});
