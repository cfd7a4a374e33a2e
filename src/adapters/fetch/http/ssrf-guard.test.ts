import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UserError } from "../../../core/errors.js";
import { parseIp, parseRange } from "./ip-address.js";
import {
  checkLiteralHost,
  checkResolvedHost,
  classifyAddress,
  EMPTY_ALLOW_LIST,
  isAddressAllowed,
  parseAllowList,
} from "./ssrf-guard.js";

const reasonOf = (address: string): string | undefined => {
  const verdict = classifyAddress(address);
  return verdict.refused ? verdict.reason : undefined;
};

describe("parseIp", () => {
  it("parses canonical IPv4 and every IPv6 notation", () => {
    expect(parseIp("192.168.1.2")).toEqual({ version: 4, value: 0xc0a80102n });
    expect(parseIp("::1")).toEqual({ version: 6, value: 1n });
    expect(parseIp("[::1]")).toEqual({ version: 6, value: 1n });
    expect(parseIp("fe80::1%eth0")).toEqual({ version: 6, value: (0xfe80n << 112n) | 1n });
    expect(parseIp("::ffff:127.0.0.1")).toEqual(parseIp("::ffff:7f00:1"));
    expect(parseIp("1:2:3:4:5:6:7:8")?.value).toBe(0x00010002000300040005000600070008n);
    expect(parseIp("1:2:3:4:5:6:7::")?.value).toBe(0x00010002000300040005000600070000n);
  });

  it("rejects non-canonical and malformed forms", () => {
    for (const bad of [
      "",
      "localhost",
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "010.0.0.1",
      "256.0.0.1",
      "1.2.3.4.5",
      "1::2::3",
      ":1::",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7:8::",
      "12345::",
      "1.2.3.4::",
      "::1.2.3",
      "g::1",
    ]) {
      expect(parseIp(bad), bad).toBeUndefined();
    }
  });

  it("parses CIDR ranges", () => {
    expect(parseRange("10.0.0.0/8")).toEqual({ version: 4, base: 0x0a000000n, prefix: 8 });
    expect(parseRange("::1")).toEqual({ version: 6, base: 1n, prefix: 128 });
    expect(parseRange("10.0.0.0/33")).toBeUndefined();
    expect(parseRange("10.0.0.0/")).toBeUndefined();
  });
});

describe("classifyAddress", () => {
  it("refuses loopback, private, shared, link-local and special IPv4 ranges", () => {
    const cases: Array<[string, string]> = [
      ["127.0.0.1", "loopback"],
      ["127.255.255.254", "loopback"],
      ["10.0.0.1", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["192.168.0.1", "private"],
      ["100.64.0.1", "private (shared address space, CGNAT)"],
      ["100.127.255.255", "private (shared address space, CGNAT)"],
      ["169.254.169.254", "link-local"],
      ["0.0.0.0", "unspecified"],
      ["0.1.2.3", "reserved (this network)"],
      ["255.255.255.255", "broadcast"],
      ["240.0.0.1", "reserved"],
      ["224.0.0.1", "multicast"],
      ["239.255.255.250", "multicast"],
      ["192.0.2.1", "documentation"],
      ["198.51.100.7", "documentation"],
      ["203.0.113.9", "documentation"],
      ["198.18.0.1", "reserved (benchmarking)"],
    ];
    for (const [address, reason] of cases) expect(reasonOf(address), address).toBe(reason);
  });

  it("allows public IPv4 next to the refused ranges", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0"]) {
      expect(classifyAddress(address), address).toEqual({ refused: false });
    }
    expect(classifyAddress("11.0.0.0")).toEqual({ refused: false });
    expect(classifyAddress("223.255.255.255")).toEqual({ refused: false });
  });

  it("refuses special IPv6 ranges", () => {
    const cases: Array<[string, string]> = [
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["fe80::1", "link-local"],
      ["febf:ffff::1", "link-local"],
      ["fc00::1", "unique-local"],
      ["fd12:3456::1", "unique-local"],
      ["ff02::1", "multicast"],
      ["2001:db8::1", "documentation"],
      ["fec0::1", "site-local (deprecated)"],
      ["64:ff9b:1::1", "private (local-use NAT64)"],
      ["100::1", "reserved (discard-only)"],
      ["4000::1", "reserved (outside global unicast 2000::/3)"],
    ];
    for (const [address, reason] of cases) expect(reasonOf(address), address).toBe(reason);
  });

  it("refuses IPv6 forms that embed a refused IPv4 address", () => {
    const cases: Array<[string, string]> = [
      ["::ffff:127.0.0.1", "IPv4-mapped form of 127.0.0.1, loopback"],
      ["::ffff:7f00:1", "IPv4-mapped form of 127.0.0.1, loopback"],
      ["::ffff:a9fe:a9fe", "IPv4-mapped form of 169.254.169.254, link-local"],
      ["::127.0.0.1", "IPv4-compatible form of 127.0.0.1, loopback"],
      ["::a00:1", "IPv4-compatible form of 10.0.0.1, private"],
      ["::ffff:0:10.0.0.1", "IPv4-translated form of 10.0.0.1, private"],
      ["64:ff9b::10.0.0.1", "NAT64 form of 10.0.0.1, private"],
      ["64:ff9b::7f00:1", "NAT64 form of 127.0.0.1, loopback"],
      ["2002:7f00:1::", "6to4 form of 127.0.0.1, loopback"],
      ["2002:c0a8:101::1", "6to4 form of 192.168.1.1, private"],
      // Teredo: server 8.8.8.8 is public, the client is 10.0.0.1 inverted (f5ff:fffe).
      ["2001:0:808:808::f5ff:fffe", "Teredo form of 10.0.0.1, private"],
    ];
    for (const [address, reason] of cases) expect(reasonOf(address), address).toBe(reason);
  });

  it("allows public IPv6 and embedded public IPv4", () => {
    for (const address of ["2606:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"]) {
      expect(classifyAddress(address), address).toEqual({ refused: false });
    }
  });

  it("refuses what is not an address", () => {
    expect(classifyAddress("example.com")).toEqual({ refused: true, reason: "not an IP address" });
  });

  it("refuses every address in 10/8 and 127/8 (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.nat(255), (b, c, d) => {
        expect(classifyAddress(`10.${b}.${c}.${d}`).refused).toBe(true);
        expect(classifyAddress(`127.${b}.${c}.${d}`).refused).toBe(true);
        expect(classifyAddress(`::ffff:10.${b}.${c}.${d}`).refused).toBe(true);
      }),
    );
  });
});

describe("allow-list", () => {
  const allow = parseAllowList(["127.0.0.1", "10.1.0.0/16", "Intranet.Example.", "fd00::/8"]);

  it("parses hosts, addresses and ranges and rejects anything else", () => {
    expect([...allow.hosts]).toEqual(["intranet.example"]);
    expect(allow.ranges).toHaveLength(3);
    expect(() => parseAllowList(["http://x"])).toThrow(UserError);
    expect(() => parseAllowList(["10.0.0.0/40"])).toThrow(UserError);
    expect(() => parseAllowList(["bad host"])).toThrow(UserError);
  });

  it("opens exactly the listed addresses, ranges and hosts", () => {
    expect(isAddressAllowed(allow, "127.0.0.1")).toBe(true);
    expect(isAddressAllowed(allow, "::ffff:127.0.0.1")).toBe(true);
    expect(isAddressAllowed(allow, "127.0.0.2")).toBe(false);
    expect(isAddressAllowed(allow, "10.1.200.3")).toBe(true);
    expect(isAddressAllowed(allow, "10.2.0.1")).toBe(false);
    expect(isAddressAllowed(allow, "fd00::5")).toBe(true);
    expect(checkResolvedHost("intranet.example", ["10.9.9.9"], allow)).toEqual({ refused: false });
  });
});

describe("checkResolvedHost", () => {
  it("refuses a host when any of its addresses is refused", () => {
    expect(checkResolvedHost("evil.example", ["93.184.216.34", "127.0.0.1"], EMPTY_ALLOW_LIST)).toEqual({
      refused: true,
      reason: "evil.example resolves to 127.0.0.1, which is loopback",
    });
    expect(checkResolvedHost("fine.example", ["93.184.216.34", "2606:2800::1"], EMPTY_ALLOW_LIST)).toEqual({
      refused: false,
    });
    expect(checkResolvedHost("none.example", [], EMPTY_ALLOW_LIST)).toEqual({
      refused: true,
      reason: "none.example has no address",
    });
  });

  it("checks IP literals (bracketed or not) and lets host names through to the connect-time check", () => {
    expect(checkLiteralHost("[::1]", EMPTY_ALLOW_LIST)).toEqual({ refused: true, reason: "::1 is loopback" });
    expect(checkLiteralHost("169.254.169.254", EMPTY_ALLOW_LIST)).toEqual({
      refused: true,
      reason: "169.254.169.254 is link-local",
    });
    expect(checkLiteralHost("example.com", EMPTY_ALLOW_LIST)).toEqual({ refused: false });
    expect(checkLiteralHost("127.0.0.1", parseAllowList(["127.0.0.1"]))).toEqual({ refused: false });
  });
});
