/**
 * Which folders an MCP client may research: only folders inside the roots the server was
 * started with (`--corpus-root`, default the working directory). A client names a folder by a
 * path it chose; the server must not read any folder of the machine on its say-so.
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, parse, resolve, sep } from "node:path";
import { UserError } from "../../core/errors.js";

const inside = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The real absolute paths of the allowed roots. With none given, the working directory, unless
 * it is the file system's root (as for a desktop client that starts servers in `/`): then no
 * corpus is allowed until `--corpus-root` names one.
 */
export async function resolveCorpusRoots(given: readonly string[], cwd: string): Promise<string[]> {
  const roots = given.length > 0 ? given : parse(resolve(cwd)).root === resolve(cwd) ? [] : [cwd];
  const real: string[] = [];
  for (const root of roots) {
    try {
      real.push(await realpath(resolve(cwd, root)));
    } catch {
      throw new UserError(`--corpus-root ${root} does not exist or cannot be read`);
    }
  }
  return real;
}

/**
 * The absolute path of the corpus a client asked for, or a UserError when its real path is
 * outside every root (a symbolic link cannot lead out). A relative path is taken from the first
 * root. A missing folder outside the roots is refused like an existing one, so that a client
 * cannot probe what exists elsewhere.
 */
export async function allowedCorpus(requested: string, roots: readonly string[]): Promise<string> {
  if (roots.length === 0)
    throw new UserError("no corpus folder is allowed: start the server with --corpus-root DIR (repeatable)");
  const first = roots[0] ?? "";
  const absolute = isAbsolute(requested) ? resolve(requested) : resolve(first, requested);
  const refused = new UserError(
    `the corpus ${requested} is outside the folders this server may read (${roots.join(", ")}); start it with --corpus-root to allow another`,
  );
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    if (!roots.some((root) => inside(root, absolute))) throw refused;
    throw new UserError(`the corpus folder ${requested} does not exist or cannot be read`);
  }
  if (!roots.some((root) => inside(root, real))) throw refused;
  return absolute;
}
