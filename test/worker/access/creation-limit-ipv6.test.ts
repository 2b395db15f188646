import { describe, expect, it } from "vitest";
import { createFromAddress, expectError, inOneLimiterWindow } from "./access-fixtures";

describe("the session creation limit", () => {
  it("counts IPv6 clients by /64: new addresses in the same network do not buy more sessions", async () => {
    const run = await inOneLimiterWindow(async () => {
      const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
      const statuses: number[] = [];
      for (let i = 1; i <= 20; i++)
        statuses.push((await createFromAddress(`${network}:${i.toString(16)}::1`)).status);
      const twentyFirst = await createFromAddress(`${network}:ffff:ffff:ffff:ffff`);
      const neighbour = await createFromAddress(`${network.replace(/:7$/, ":8")}::1`);
      return { statuses, twentyFirst, neighbour };
    });
    expect(run.statuses).toEqual(Array(20).fill(201));
    await expectError(run.twentyFirst, 429, "rate_limited");
    expect(run.neighbour.status).toBe(201);
  });
});
