/**
 * Who `assay mcp` acts as: exactly one user, named by `--user` or by the user of an API token
 * (`--token-file`, else `ASSAY_TOKEN`). Every run the server lists, reads or creates is that
 * user's; without one the command refuses to start.
 */
import { readFile } from "node:fs/promises";
import { UserError } from "../../core/errors.js";
import type { Store } from "../../ports/store.js";
import { touchDue, USER_PATTERN, verifyToken } from "../http/tokens.js";

/** Where the user comes from, decided before the store is opened. */
export type UserSource =
  | { kind: "user"; user: string }
  | { kind: "token"; secret: string; from: "--token-file" | "ASSAY_TOKEN" };

export const NO_USER_MESSAGE =
  "assay mcp acts as one user: pass --user NAME, or an API token with --token-file FILE or ASSAY_TOKEN (assay tokens create --user NAME)";

/**
 * The user source of the options: `--user` (checked against USER_PATTERN), else the token of
 * `--token-file`, else `ASSAY_TOKEN`. Throws UserError (exit code 2) for none, both flags, a bad
 * name, or an unreadable or empty token file.
 */
export async function userSource(
  options: { user?: string; tokenFile?: string },
  environment: Record<string, string | undefined>,
): Promise<UserSource> {
  if (options.user !== undefined && options.tokenFile !== undefined)
    throw new UserError("give one of --user and --token-file, not both");
  if (options.user !== undefined) {
    if (!USER_PATTERN.test(options.user))
      throw new UserError(
        `--user ${JSON.stringify(options.user)}: expected 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit`,
      );
    return { kind: "user", user: options.user };
  }
  if (options.tokenFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.tokenFile, "utf8");
    } catch {
      throw new UserError(`--token-file ${options.tokenFile} does not exist or cannot be read`);
    }
    const secret = text.trim();
    if (secret === "") throw new UserError(`--token-file ${options.tokenFile} is empty`);
    return { kind: "token", secret, from: "--token-file" };
  }
  const secret = environment.ASSAY_TOKEN?.trim() ?? "";
  if (secret !== "") return { kind: "token", secret, from: "ASSAY_TOKEN" };
  throw new UserError(NO_USER_MESSAGE);
}

/** The user of the source: the name itself, or the user of a valid token (UserError for an unknown or revoked one). */
export async function resolveUser(store: Store, source: UserSource, now: Date): Promise<string> {
  if (source.kind === "user") return source.user;
  const token = await verifyToken(store, source.secret);
  if (!token)
    throw new UserError(
      `the API token of ${source.from} is unknown or revoked; create one with assay tokens create --user NAME`,
    );
  if (touchDue(token, now.getTime())) await store.touchApiToken(token.id, now.toISOString());
  return token.userId;
}
