/**
 * Corpus-relative paths: validated syntax (pure), then resolved on disk with symlinks
 * followed and checked to stay inside the corpus.
 */
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { UserError } from "../../core/errors.js";
import { err, ok, type Result } from "../../core/result.js";
import { isSupportedFile } from "../extract/extract-by-type.js";

const MAX_PATH_CHARS = 1_024;

/**
 * Normalizes a corpus-relative path to `a/b/c.md` or refuses it: empty, too long, NUL or
 * control characters, absolute (`/x`, `\\x`, `C:`), backslashes, `..` segments. Pure.
 */
export function normalizeCorpusPath(input: string): Result<string> {
  if (input.length === 0) return err("the path is empty");
  if (input.length > MAX_PATH_CHARS) return err(`the path is longer than ${MAX_PATH_CHARS} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\u0000-\u001f\u007f]/.test(input)) return err("the path contains a NUL or control character");
  if (input.startsWith("/") || /^[A-Za-z]:/.test(input))
    return err("the path is absolute; give a path inside the corpus");
  if (input.includes("\\")) return err("the path contains a backslash; use forward slashes");
  const segments = input.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.some((segment) => segment === "..")) return err("the path contains '..'; it may not leave the corpus");
  if (segments.length === 0) return err("the path names the corpus folder itself, not a document");
  return ok(segments.join("/"));
}

/** Resolves a corpus folder given by the user to its real absolute path, or throws UserError. */
export async function resolveCorpusRoot(folder: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(folder);
  } catch {
    throw new UserError(`the corpus folder ${folder} does not exist or cannot be read`);
  }
  const info = await stat(real);
  if (!info.isDirectory()) throw new UserError(`the corpus ${folder} is not a folder`);
  return real;
}

const inside = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The real absolute path of corpus document `relative` under real root `root`. Refuses
 * invalid paths, symlinks that leave the corpus, missing files, non-files and unsupported types.
 */
export async function resolveCorpusFile(
  root: string,
  relative: string,
): Promise<Result<{ path: string; absolute: string }>> {
  const normalized = normalizeCorpusPath(relative);
  if (!normalized.ok) return normalized;
  let real: string;
  try {
    real = await realpath(join(root, normalized.value));
  } catch {
    return err(`no document ${normalized.value} in the corpus`);
  }
  if (!inside(root, real)) return err(`${normalized.value} is a link that leads outside the corpus`);
  const info = await stat(real);
  if (!info.isFile()) return err(`${normalized.value} is not a file`);
  if (!isSupportedFile(real)) return err(`${normalized.value} is not a supported document type`);
  return ok({ path: normalized.value, absolute: real });
}

export interface CorpusFile {
  /** Corpus-relative path with forward slashes. */
  path: string;
  absolute: string;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: CorpusFile[];
  /** Paths skipped, with why (links leaving the corpus, unreadable folders, files over the size cap). */
  skipped: { path: string; reason: string }[];
  /** Files of a type Assay does not read, counted by extension ("" for none), in extension order. */
  unsupported: Record<string, number>;
}

/**
 * Lists supported documents under `root` (real path). Hidden entries are skipped; symlinks
 * are followed only while they stay inside the corpus; each real folder is visited once.
 */
export async function walkCorpus(
  root: string,
  options: { maxFiles?: number; maxFileBytes?: number } = {},
): Promise<WalkResult> {
  const maxFiles = options.maxFiles ?? 100_000;
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
  const result: WalkResult = { files: [], skipped: [], unsupported: {} };
  const visited = new Set<string>([root]);
  const queue: { real: string; relative: string }[] = [{ real: root, relative: "" }];
  while (queue.length > 0) {
    const folder = queue.shift();
    if (!folder) break;
    let names: string[];
    try {
      names = (await readdir(folder.real)).sort();
    } catch (error) {
      result.skipped.push({ path: folder.relative || ".", reason: `cannot read folder: ${String(error)}` });
      continue;
    }
    for (const name of names) {
      if (name.startsWith(".")) continue;
      const relative = folder.relative ? `${folder.relative}/${name}` : name;
      const entry = join(folder.real, name);
      let real = entry;
      const link = await lstat(entry).catch(() => undefined);
      if (!link) continue;
      if (link.isSymbolicLink()) {
        const target = await realpath(entry).catch(() => undefined);
        if (!target || !inside(root, target)) {
          result.skipped.push({ path: relative, reason: "link leads outside the corpus" });
          continue;
        }
        real = target;
      }
      const info = await stat(real).catch(() => undefined);
      if (!info) continue;
      if (info.isDirectory()) {
        if (!visited.has(real)) {
          visited.add(real);
          queue.push({ real, relative });
        }
      } else if (info.isFile() && !(isSupportedFile(name) && isSupportedFile(real))) {
        const type = extname(real).toLowerCase();
        result.unsupported[type] = (result.unsupported[type] ?? 0) + 1;
      } else if (info.isFile()) {
        // The target's type counts too (as in resolveCorpusFile): `x.md` linking to `y.exe` is not a document.
        if (info.size > maxFileBytes) {
          result.skipped.push({ path: relative, reason: `larger than ${maxFileBytes} bytes` });
        } else if (result.files.length < maxFiles) {
          result.files.push({ path: relative, absolute: real, size: info.size, mtimeMs: info.mtimeMs });
        }
      }
    }
  }
  result.unsupported = Object.fromEntries(
    Object.entries(result.unsupported).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return result;
}
