/** `assay tokens create | list | revoke`: the HTTP API's tokens (stored hashed; the secret is printed once). */
import { UserError } from "../../core/errors.js";
import type { Store } from "../../ports/store.js";
import { createToken, USER_PATTERN } from "../http/tokens.js";

export async function createTokenCommand(
  store: Store,
  options: { user: string; name?: string; json?: boolean },
  out: NodeJS.WritableStream,
): Promise<void> {
  if (!USER_PATTERN.test(options.user))
    throw new UserError(
      `--user ${JSON.stringify(options.user)}: expected 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit`,
    );
  const name = (options.name ?? "").trim();
  if (name.length > 200) throw new UserError("--name is longer than 200 characters");
  const { token, secret } = await createToken(store, options.user, name, new Date());
  if (options.json) {
    out.write(`${JSON.stringify({ id: token.id, userId: token.userId, name: token.name, token: secret })}\n`);
    return;
  }
  out.write(
    `Token ${token.id} for user ${token.userId}${name ? ` (${name})` : ""}:\n\n  ${secret}\n\nIt is shown only this once (only its hash is stored). Send it as: Authorization: Bearer ${secret.slice(0, 10)}…\n`,
  );
}

export async function listTokensCommand(
  store: Store,
  options: { user?: string; json?: boolean },
  out: NodeJS.WritableStream,
): Promise<void> {
  const tokens = await store.listApiTokens(options.user === undefined ? {} : { userId: options.user });
  if (options.json) {
    out.write(`${JSON.stringify(tokens.map(({ hash: _hash, ...token }) => token))}\n`);
    return;
  }
  if (tokens.length === 0) {
    out.write("No API tokens. Create one with: assay tokens create --user NAME\n");
    return;
  }
  out.write(
    `${"ID".padEnd(5)} ${"USER".padEnd(20)} ${"STATUS".padEnd(8)} ${"CREATED".padEnd(20)} ${"LAST USED".padEnd(20)} NAME\n`,
  );
  const time = (iso: string) => (iso ? iso.slice(0, 19).replace("T", " ") : "—");
  for (const token of tokens)
    out.write(
      `${String(token.id).padEnd(5)} ${token.userId.padEnd(20)} ${(token.revokedAt ? "revoked" : "valid").padEnd(8)} ${time(token.createdAt).padEnd(20)} ${time(token.lastUsedAt).padEnd(20)} ${token.name}\n`,
    );
}

export async function revokeTokenCommand(store: Store, id: number, out: NodeJS.WritableStream): Promise<void> {
  if (!(await store.revokeApiToken(id, new Date().toISOString()))) {
    const known = (await store.listApiTokens()).find((token) => token.id === id);
    throw new UserError(known ? `token ${id} is already revoked` : `there is no token ${id}; see assay tokens list`);
  }
  out.write(`Token ${id} revoked: it authenticates nothing from now on.\n`);
}
