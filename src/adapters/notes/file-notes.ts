/**
 * notes.md working copies as files in one notes directory. A write goes to a temp file in
 * the same directory (a unique dot-name that never matches the notes pattern), is fsynced,
 * and is renamed over the old file; the directory is then synced. Names are validated against
 * the notes file pattern, so no name can leave the directory.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { describeError, ExternalServiceError, UserError } from "../../core/errors.js";
import { NOTES_FILE_PATTERN } from "../../core/investigative/notes.js";
import type { NotesFiles } from "../../ports/notes-store.js";

export interface FileNotesOptions {
  /** The notes directory (`research_notes_dir`); made on the first write. */
  directory: string;
}

function checkName(name: string): void {
  if (!NOTES_FILE_PATTERN.test(name)) {
    throw new UserError(`"${name.slice(0, 200)}" is not a notes file name (notes_<user>_<run>_<notes_id>.md)`);
  }
}

const isMissing = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class FileNotes implements NotesFiles {
  readonly #directory: string;

  constructor(options: FileNotesOptions) {
    this.#directory = options.directory;
  }

  async read(name: string): Promise<string | undefined> {
    checkName(name);
    try {
      return await readFile(join(this.#directory, name), "utf8");
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new ExternalServiceError(`cannot read the notes file ${name}: ${describeError(error)}`, { cause: error });
    }
  }

  async write(name: string, text: string): Promise<void> {
    checkName(name);
    const temporary = join(this.#directory, `.${name}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`);
    try {
      await mkdir(this.#directory, { recursive: true });
      const handle = await open(temporary, "wx", 0o644);
      try {
        await handle.writeFile(text, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, join(this.#directory, name));
      await syncDirectory(this.#directory);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new ExternalServiceError(`cannot write the notes file ${name}: ${describeError(error)}`, { cause: error });
    }
  }
}
