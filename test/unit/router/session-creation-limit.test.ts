import { describe, expect, it } from "vitest";
import { creationKey } from "../../../src/router/guards/session-creation-limit";

describe("the key session creations are counted under", () => {
  it("is the /64 for IPv6, so every address of one network counts as one client", () => {
    expect(creationKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(creationKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(creationKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });

  it("is the address itself for IPv4, also when it arrives IPv4-mapped", () => {
    expect(creationKey("198.51.100.7")).toBe("198.51.100.7");
    expect(creationKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
  });

  it("is none for loopback, which only this machine sends", () => {
    expect(creationKey("127.0.0.1")).toBeNull();
    expect(creationKey("::1")).toBeNull();
  });
});
