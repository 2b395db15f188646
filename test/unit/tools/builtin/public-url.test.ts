import { describe, expect, it } from "vitest";
import { checkPublicUrl } from "../../../../src/tools/builtin/public-url";

describe("checkPublicUrl", () => {
  it.each([
    "https://example.com/",
    "http://example.com:8080/path?q=1",
    "https://8.8.8.8/",
    "https://172.32.0.1/",
    "https://100.128.0.1/",
    "https://[2606:4700:4700::1111]/",
    "https://[64:ff9b::8.8.8.8]/",
    "https://[2002:808:808::1]/",
  ])("allows the public URL %s", (url) => {
    expect(checkPublicUrl(url).ok).toBe(true);
  });

  it.each([
    "http://localhost/",
    "http://LOCALHOST.:8787/",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://127.0.0.1/",
    "http://127.1.2.3:8080/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0.0.0.0/",
    "http://10.0.0.5/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[fe80::1]/",
    "http://[fd12:3456::1]/",
  ])("refuses the local or private address %s", (url) => {
    const check = checkPublicUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(/local or private network address/);
  });

  it.each([
    ["NAT64 of 127.0.0.1", "http://[64:ff9b::127.0.0.1]/"],
    ["NAT64 of 10.0.0.1", "http://[64:ff9b::a00:1]/"],
    ["NAT64 of the cloud metadata address", "http://[64:ff9b::169.254.169.254]/latest/meta-data/"],
    ["the local-use NAT64 prefix", "http://[64:ff9b:1::808:808]/"],
    ["6to4 of 192.168.1.1", "http://[2002:c0a8:101::1]/"],
    ["6to4 of 127.0.0.1", "http://[2002:7f00:1::]/"],
    ["6to4 of the cloud metadata address", "http://[2002:a9fe:a9fe::1]/"],
  ])("refuses an IPv6 address that translates to a private IPv4 one: %s", (_what, url) => {
    const check = checkPublicUrl(url);
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/local or private network address/) });
  });

  it.each([
    ["an IPv4-translated loopback (::ffff:0:0:0/96)", "http://[::ffff:0:7f00:1]/"],
    ["a deprecated site-local address (fec0::/10)", "http://[fec0::1]/"],
    ["an IETF protocol assignment (192.0.0.0/24)", "http://192.0.0.170/"],
    ["the benchmarking range 198.18.0.0/15", "http://198.18.0.1/"],
    ["a Teredo address (2001::/32)", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"],
    ["the IPv4-compatible form of a public address", "http://[::8.8.8.8]/"],
    ["a documentation address (TEST-NET-1)", "http://192.0.2.1/"],
    ["a documentation address (TEST-NET-3)", "http://203.0.113.9/"],
    ["the reserved range 240.0.0.0/4", "http://240.0.0.1/"],
    ["the limited broadcast address", "http://255.255.255.255/"],
    ["an IPv4 multicast address", "http://239.1.2.3/"],
    ["an IPv6 multicast address", "http://[ff02::1]/"],
    ["an IPv6 documentation address", "http://[2001:db8::1]/"],
    ["an IPv6 benchmarking address", "http://[2001:2::1]/"],
    ["the IPv6 discard prefix", "http://[100::1]/"],
    ["an ORCHIDv2 address", "http://[2001:20::1]/"],
    ["NAT64 of a benchmarking address", "http://[64:ff9b::c612:1]/"],
    ["6to4 of TEST-NET-2", "http://[2002:c633:6401::1]/"],
  ])("refuses an address outside public unicast space: %s", (_what, url) => {
    const check = checkPublicUrl(url);
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/local or private network address/) });
  });

  it.each([
    "http://intranet/",
    "http://metadata/computeMetadata/v1/",
    "https://router:8443/",
    "http://wpad./",
  ])("refuses the single-label host of %s, which a resolver completes from its search list", (url) => {
    const check = checkPublicUrl(url);
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/local or private network address/) });
  });

  it.each(["file:///etc/passwd", "ftp://example.com/file", "javascript:alert(1)", "data:text/plain,hi"])(
    "refuses the non-http scheme of %s",
    (url) => {
      const check = checkPublicUrl(url);
      expect(check).toEqual({ ok: false, reason: expect.stringMatching(/^Only http and https URLs/) });
    },
  );

  it("refuses text that is not an absolute URL and URLs carrying credentials", () => {
    expect(checkPublicUrl("example.com/page")).toEqual({
      ok: false,
      reason: '"example.com/page" is not a valid absolute URL.',
    });
    expect(checkPublicUrl("https://user:pw@example.com/").ok).toBe(false);
  });
});
