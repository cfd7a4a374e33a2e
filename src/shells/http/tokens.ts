/** API tokens: the secret (shown once), its stored SHA-256 and the request's Bearer check. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { ApiTokenRecord, Store } from "../../ports/store.js";

/** Every token starts with this, so that a leaked one is recognisable. */
export const TOKEN_PREFIX = "assay_";

/** A user name: what `assay tokens create --user` accepts. */
export const USER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** A new secret: the prefix and 32 random bytes, base64url. */
export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function hashToken(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Creates a token for `userId`: the record (its hash) and the secret, which is stored nowhere. */
export async function createToken(
  store: Store,
  userId: string,
  name: string,
  now: Date,
): Promise<{ token: ApiTokenRecord; secret: string }> {
  const secret = newTokenSecret();
  const token = await store.createApiToken({ userId, name, hash: hashToken(secret), createdAt: now.toISOString() });
  return { token, secret };
}

/**
 * The valid token a secret belongs to, or undefined (unknown, malformed or revoked). The
 * looked-up hash is compared again in constant time.
 */
export async function verifyToken(store: Store, secret: string): Promise<ApiTokenRecord | undefined> {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return undefined;
  const hash = hashToken(secret);
  const token = await store.findApiToken(hash);
  if (!token || token.revokedAt !== "") return undefined;
  const stored = Buffer.from(token.hash, "hex");
  const given = Buffer.from(hash, "hex");
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return undefined;
  return token;
}

/**
 * Whether a token's (or a web session's) `last_used_at` is worth writing again (at most once a
 * minute, to spare the store). Pure.
 */
export function touchDue(record: Pick<ApiTokenRecord, "lastUsedAt">, nowMs: number): boolean {
  const last = Date.parse(record.lastUsedAt);
  return Number.isNaN(last) || nowMs - last >= 60_000;
}
