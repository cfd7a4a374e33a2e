import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { createGuardedConnector, guardedLookup, RefusedAddressError } from "./guarded-connector.js";
import { EMPTY_ALLOW_LIST, parseAllowList } from "./ssrf-guard.js";

const lookup = async (hostname: string) =>
  hostname === "dual.example"
    ? [
        { address: "2606:4700::1111", family: 6 },
        { address: "93.184.216.34", family: 4 },
      ]
    : [{ address: "10.0.0.7", family: 4 }];

type LookupResult = { error: Error | null; address: string | LookupAddress[]; family?: number | undefined };

function resolve(hostname: string, options: { all?: boolean; family?: number }, allow = EMPTY_ALLOW_LIST) {
  return new Promise<LookupResult>((done) => {
    guardedLookup({ allow, lookup })(hostname, options, (error, address, family) => done({ error, address, family }));
  });
}

describe("guardedLookup", () => {
  it("answers in the shape net.connect asked for", async () => {
    expect(await resolve("dual.example", { all: true })).toMatchObject({
      error: null,
      address: [
        { address: "2606:4700::1111", family: 6 },
        { address: "93.184.216.34", family: 4 },
      ],
    });
    expect(await resolve("dual.example", { family: 4 })).toEqual({ error: null, address: "93.184.216.34", family: 4 });
  });

  it("refuses a host with a refused address unless allow-listed", async () => {
    const refused = await resolve("db.internal", { all: true });
    expect(refused.error).toBeInstanceOf(RefusedAddressError);
    expect(refused.error?.message).toBe("refused to connect: db.internal resolves to 10.0.0.7, which is private");
    const allowed = await resolve("db.internal", { all: true }, parseAllowList(["10.0.0.0/24"]));
    expect(allowed.error).toBeNull();
  });
});

describe("createGuardedConnector", () => {
  it("refuses an IP literal without opening a socket", async () => {
    const connect = createGuardedConnector({ allow: EMPTY_ALLOW_LIST, lookup, connectTimeoutMs: 1000 });
    for (const hostname of ["127.0.0.1", "[::1]", "169.254.169.254", "::ffff:a00:1"]) {
      const result = await new Promise<{ error: Error | null; socket: unknown }>((done) =>
        connect({ hostname, protocol: "http:", port: "80" }, (error, socket) => done({ error, socket })),
      );
      expect(result.error, hostname).toBeInstanceOf(RefusedAddressError);
      expect(result.socket).toBeNull();
    }
  });
});
