/**
 * Strict IP address parsing (pure). Only canonical dotted-quad IPv4 is accepted: the WHATWG
 * URL parser and the resolver already turn `0x7f.1` or `2130706433` into `127.0.0.1`.
 */

export type IpAddress = { version: 4; value: bigint } | { version: 6; value: bigint };

/** An IPv4 address or an IPv6 address (brackets and a zone id allowed), or undefined. */
export function parseIp(text: string): IpAddress | undefined {
  const host = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return { version: 4, value: v4 };
  const v6 = parseIpv6(host);
  if (v6 !== undefined) return { version: 6, value: v6 };
  return undefined;
}

export function parseIpv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // No leading zeros: some resolvers read `010` as octal, so such forms are not addresses here.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseGroups(part: string, allowTrailingV4: boolean): number[] | undefined {
  if (part === "") return [];
  const pieces = part.split(":");
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (piece.includes(".")) {
      if (!allowTrailingV4 || index !== pieces.length - 1) return undefined;
      const v4 = parseIpv4(piece);
      if (v4 === undefined) return undefined;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

export function parseIpv6(text: string): bigint | undefined {
  const zone = text.indexOf("%");
  const body = zone === -1 ? text : text.slice(0, zone);
  if (!/^[0-9a-fA-F:.]+$/.test(body)) return undefined;
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const compressed = halves.length === 2;
  const head = parseGroups(halves[0] ?? "", !compressed);
  const tail = compressed ? parseGroups(halves[1] ?? "", true) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(compressed ? missing : 0).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
}

/** A CIDR range; `bits` is 32 or 128. */
export interface IpRange {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

/** Parses `10.0.0.0/8`, `fc00::/7` or a single address (a full-length prefix). */
export function parseRange(text: string): IpRange | undefined {
  const slash = text.indexOf("/");
  const ip = parseIp(slash === -1 ? text : text.slice(0, slash));
  if (!ip) return undefined;
  const bits = ip.version === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(bits) : text.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  return { version: ip.version, base: ip.value, prefix };
}

export function inRange(ip: IpAddress, range: IpRange): boolean {
  if (ip.version !== range.version) return false;
  const shift = BigInt((ip.version === 4 ? 32 : 128) - range.prefix);
  return ip.value >> shift === range.base >> shift;
}
