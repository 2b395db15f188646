// Where a dev server on loopback may push: http://127.0.0.1:<port> when PUSH_SERVICE_DOMAINS names
// the host, a local push service's or a test's; never from a deployment reached off loopback.
import { describe, expect, it } from "vitest";
import { pushEndpointProblem } from "../../../src/notify/push-services";

describe("push endpoints on loopback", () => {
  it("are accepted over http on a dev server reached on loopback when PUSH_SERVICE_DOMAINS names the host", () => {
    expect(pushEndpointProblem("http://127.0.0.1:9123/push/abc", ["127.0.0.1"], true)).toBeNull();
    expect(pushEndpointProblem("http://localhost:9123/push/abc", ["localhost"], true)).toBeNull();
  });

  it("are refused when PUSH_SERVICE_DOMAINS does not name the host, saying so", () => {
    expect(pushEndpointProblem("http://127.0.0.1:9123/push/abc", ["push.example.com"], true)).toMatch(
      /local push service only where PUSH_SERVICE_DOMAINS names it/,
    );
  });

  it("are refused on a server reached off loopback, however PUSH_SERVICE_DOMAINS reads", () => {
    expect(pushEndpointProblem("http://127.0.0.1:9123/push/abc", ["127.0.0.1"], false)).toBe(
      "endpoint must be https",
    );
  });

  it("are refused over http for any other host, even one PUSH_SERVICE_DOMAINS names", () => {
    expect(pushEndpointProblem("http://push.example.com:9123/x", ["push.example.com"], true)).toBe(
      "endpoint must be https",
    );
    expect(pushEndpointProblem("http://169.254.169.254:80/x", ["169.254.169.254"], true)).toBe(
      "endpoint must be https",
    );
  });

  it("are refused with a user name in them", () => {
    expect(pushEndpointProblem("http://me:pw@127.0.0.1:9123/x", ["127.0.0.1"], true)).toMatch(/user name/);
  });
});
