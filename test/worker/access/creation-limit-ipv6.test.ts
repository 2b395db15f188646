import { describe, expect, it } from "vitest";
import { createFromAddress, expectError } from "./access-fixtures";

describe("the session creation limit", () => {
  it("counts IPv6 clients by /64: new addresses in the same network do not buy more sessions", async () => {
    const create = createFromAddress;
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i++) statuses.push((await create(`${network}:${i.toString(16)}::1`)).status);
    expect(statuses).toEqual(Array(20).fill(201));
    await expectError(await create(`${network}:ffff:ffff:ffff:ffff`), 429, "rate_limited");
    expect((await create(`${network.replace(/:7$/, ":8")}::1`)).status).toBe(201);
  });
});
