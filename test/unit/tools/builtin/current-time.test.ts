import { describe, expect, it } from "vitest";
import { currentTime } from "../../../../src/tools/builtin/current-time";
import { createToolRegistry } from "../../../../src/tools/registry";
import { toolContext } from "../tool-context";

const registry = createToolRegistry([currentTime]);

describe("current_time", () => {
  it("reports the injected clock in UTC by default", async () => {
    const result = await registry.execute("current_time", {}, toolContext());
    expect(result.isError).toBe(false);
    expect(result.content).toContain("UTC: 2026-03-14T15:09:26.535Z");
    expect(result.content).toContain("Local time in UTC: Saturday, March 14, 2026 at 3:09:26 PM UTC");
    expect(result.content).toContain("UTC offset: +00:00");
  });

  it("gives local time and offset in the requested zone, across a date line", async () => {
    const result = await registry.execute("current_time", { timeZone: "Asia/Tokyo" }, toolContext());
    expect(result.content).toContain("UTC: 2026-03-14T15:09:26.535Z");
    expect(result.content).toMatch(/Local time in Asia\/Tokyo: Sunday, March 15, 2026 at 12:09:26 AM/);
    expect(result.content).toContain("UTC offset: +09:00");
  });

  it("follows daylight saving time in the zone", async () => {
    const summer = Date.UTC(2026, 6, 1, 12, 0, 0);
    const result = await registry.execute(
      "current_time",
      { timeZone: "Europe/Paris" },
      toolContext({ now: () => summer }),
    );
    expect(result.content).toMatch(/Local time in Europe\/Paris: Wednesday, July 1, 2026 at 2:00:00 PM/);
    expect(result.content).toContain("UTC offset: +02:00");
  });

  it("answers an unknown zone with an error that shows valid names", async () => {
    const result = await registry.execute("current_time", { timeZone: "Mars/Olympus_Mons" }, toolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Unknown time zone "Mars\/Olympus_Mons".*Europe\/Paris/);
  });
});
