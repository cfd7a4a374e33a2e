/**
 * The undici connector of the HTTP fetcher: every new connection resolves its host through
 * our lookup, and is refused when any resolved address (or the literal IP) is refused by the
 * SSRF guard. The socket connects only to the addresses that were checked, so neither a
 * redirect nor DNS rebinding between check and connect can reach a refused address.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { buildConnector } from "undici";
import { UserError } from "../../../core/errors.js";
import { type AllowList, checkLiteralHost, checkResolvedHost, normalizeHost } from "./ssrf-guard.js";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** A connection refused by the SSRF guard; `reason` says which address and why. */
export class RefusedAddressError extends UserError {
  readonly reason: string;
  constructor(reason: string) {
    super(`refused to connect: ${reason}`);
    this.reason = reason;
  }
}

export interface GuardedConnectorOptions {
  allow: AllowList;
  lookup: HostLookup;
  connectTimeoutMs: number;
}

function wantedFamily(options: LookupOptions): 4 | 6 | undefined {
  const family = options.family;
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return undefined;
}

export function guardedLookup(options: Omit<GuardedConnectorOptions, "connectTimeoutMs">): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    options.lookup(hostname).then(
      (addresses) => {
        const verdict = checkResolvedHost(
          hostname,
          addresses.map((entry) => entry.address),
          options.allow,
        );
        if (verdict.refused) {
          callback(new RefusedAddressError(verdict.reason), []);
          return;
        }
        const family = wantedFamily(lookupOptions);
        const usable: LookupAddress[] = addresses
          .filter((entry) => family === undefined || entry.family === family)
          .map((entry) => ({ address: entry.address, family: entry.family }));
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`no IPv${family ?? ""} address for ${hostname}`);
          error.code = "ENOTFOUND";
          callback(error, []);
          return;
        }
        if (lookupOptions.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
    );
  };
}

export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options),
  });
  return (connectOptions, callback) => {
    // net.connect skips the lookup for an IP literal, so literals are checked here.
    const host = normalizeHost(connectOptions.hostname);
    if (isIP(host) !== 0) {
      const verdict = checkLiteralHost(host, options.allow);
      if (verdict.refused) {
        callback(new RefusedAddressError(verdict.reason), null);
        return;
      }
    }
    connect(connectOptions, callback);
  };
}
