/**
 * Which addresses the HTTP fetcher may connect to (pure). Everything that is not a public
 * unicast address is refused: loopback, private and shared ranges, link-local, multicast,
 * reserved, documentation and benchmarking ranges, and every IPv6 form that embeds a refused
 * IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo). An allow-list of exact
 * host names, addresses and CIDR ranges opens holes for tests and intranet use.
 */
import { UserError } from "../../../core/errors.js";
import { formatIpv4, type IpAddress, type IpRange, inRange, parseIp, parseRange } from "./ip-address.js";

export type AddressVerdict = { refused: false } | { refused: true; reason: string };

const ALLOWED: AddressVerdict = { refused: false };
const refuse = (reason: string): AddressVerdict => ({ refused: true, reason });

function ranges(entries: ReadonlyArray<readonly [string, string]>): Array<{ range: IpRange; reason: string }> {
  return entries.map(([cidr, reason]) => {
    const range = parseRange(cidr);
    if (!range) throw new Error(`bad built-in range ${cidr}`);
    return { range, reason };
  });
}

// First match wins, so the more specific ranges come first.
const V4_REFUSED = ranges([
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/32", "unspecified"],
  ["0.0.0.0/8", "reserved (this network)"],
  ["127.0.0.0/8", "loopback"],
  ["10.0.0.0/8", "private"],
  ["172.16.0.0/12", "private"],
  ["192.168.0.0/16", "private"],
  ["100.64.0.0/10", "private (shared address space, CGNAT)"],
  ["169.254.0.0/16", "link-local"],
  ["192.0.0.0/24", "reserved (IETF protocol assignments)"],
  ["192.0.2.0/24", "documentation"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["198.18.0.0/15", "reserved (benchmarking)"],
  ["192.88.99.0/24", "reserved (6to4 relay anycast)"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
]);

const V6_REFUSED = ranges([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["64:ff9b:1::/48", "private (local-use NAT64)"],
  ["100::/64", "reserved (discard-only)"],
  ["2001:2::/48", "reserved (benchmarking)"],
  ["2001:10::/28", "reserved (ORCHID)"],
  ["2001:20::/28", "reserved (ORCHIDv2)"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["fc00::/7", "unique-local"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local (deprecated)"],
  ["ff00::/8", "multicast"],
]);

const MASK32 = 0xffffffffn;

/** IPv6 forms that carry an IPv4 address, and how to get it out. */
const V6_EMBEDDINGS: ReadonlyArray<{ range: IpRange; name: string; embedded: (value: bigint) => bigint[] }> = [
  { cidr: "::ffff:0:0/96", name: "IPv4-mapped", embedded: (value: bigint) => [value & MASK32] },
  { cidr: "::ffff:0:0:0/96", name: "IPv4-translated", embedded: (value: bigint) => [value & MASK32] },
  { cidr: "::/96", name: "IPv4-compatible", embedded: (value: bigint) => [value & MASK32] },
  { cidr: "64:ff9b::/96", name: "NAT64", embedded: (value: bigint) => [value & MASK32] },
  { cidr: "2002::/16", name: "6to4", embedded: (value: bigint) => [(value >> 80n) & MASK32] },
  // Teredo: the server address in bits 32-63, the client address inverted in the last 32 bits.
  {
    cidr: "2001::/32",
    name: "Teredo",
    embedded: (value: bigint) => [(value >> 64n) & MASK32, ~value & MASK32],
  },
].map(({ cidr, name, embedded }) => {
  const range = parseRange(cidr);
  if (!range) throw new Error(`bad built-in range ${cidr}`);
  return { range, name, embedded };
});

const GLOBAL_UNICAST = parseRange("2000::/3");
const IPV4_MAPPED = parseRange("::ffff:0:0/96");

function classifyIpv4(ip: IpAddress): AddressVerdict {
  const match = V4_REFUSED.find((entry) => inRange(ip, entry.range));
  return match ? refuse(match.reason) : ALLOWED;
}

function classifyIpv6(ip: IpAddress): AddressVerdict {
  const direct = V6_REFUSED.find((entry) => inRange(ip, entry.range));
  if (direct) return refuse(direct.reason);
  const embedding = V6_EMBEDDINGS.find((entry) => inRange(ip, entry.range));
  if (embedding) {
    for (const v4 of embedding.embedded(ip.value)) {
      const verdict = classifyIpv4({ version: 4, value: v4 });
      if (verdict.refused) return refuse(`${embedding.name} form of ${formatIpv4(v4)}, ${verdict.reason}`);
    }
    return ALLOWED;
  }
  if (GLOBAL_UNICAST && !inRange(ip, GLOBAL_UNICAST)) return refuse("reserved (outside global unicast 2000::/3)");
  return ALLOWED;
}

/** Whether an address may be connected to, ignoring any allow-list. Pure; never throws. */
export function classifyAddress(address: string): AddressVerdict {
  const ip = parseIp(address);
  if (!ip) return refuse("not an IP address");
  return ip.version === 4 ? classifyIpv4(ip) : classifyIpv6(ip);
}

/** Exact host names and address ranges that are reachable even when the guard would refuse them. */
export interface AllowList {
  readonly hosts: ReadonlySet<string>;
  readonly ranges: readonly IpRange[];
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), ranges: [] };

/** Lower-cased host name without brackets and without a trailing dot. */
export function normalizeHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, "");
}

/**
 * Parses allow-list entries: exact host names (`intranet.example`), addresses (`127.0.0.1`,
 * `::1`) and CIDR ranges (`10.1.0.0/16`). Throws UserError on an entry that is none of these.
 */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const allowed: IpRange[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    const range = parseRange(normalizeHost(trimmed));
    if (range) {
      allowed.push(range);
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(trimmed)) {
      hosts.add(normalizeHost(trimmed));
    } else {
      throw new UserError(`allow-list entry "${entry}" is not a host name, an IP address or a CIDR range`);
    }
  }
  return { hosts, ranges: allowed };
}

/** Whether an address is in an allowed range; an IPv4-mapped address also matches its IPv4 ranges. */
export function isAddressAllowed(allow: AllowList, address: string): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  const candidates: IpAddress[] = [ip];
  if (IPV4_MAPPED && inRange(ip, IPV4_MAPPED)) candidates.push({ version: 4, value: ip.value & MASK32 });
  return candidates.some((candidate) => allow.ranges.some((range) => inRange(candidate, range)));
}

/**
 * The connection decision for `host` resolving to `addresses`: allowed when the host name is
 * allow-listed, else refused when any address is refused and not allow-listed. Pure.
 */
export function checkResolvedHost(host: string, addresses: readonly string[], allow: AllowList): AddressVerdict {
  const name = normalizeHost(host);
  if (allow.hosts.has(name)) return ALLOWED;
  if (addresses.length === 0) return refuse(`${name} has no address`);
  for (const address of addresses) {
    if (isAddressAllowed(allow, address)) continue;
    const verdict = classifyAddress(address);
    if (verdict.refused) {
      const subject = normalizeHost(address) === name ? name : `${name} resolves to ${address}, which`;
      return refuse(`${subject} is ${verdict.reason}`);
    }
  }
  return ALLOWED;
}

/** For a URL host that is an IP literal: the verdict before connecting. Host names pass (checked on connect). */
export function checkLiteralHost(host: string, allow: AllowList): AddressVerdict {
  const name = normalizeHost(host);
  return parseIp(name) ? checkResolvedHost(name, [name], allow) : ALLOWED;
}
