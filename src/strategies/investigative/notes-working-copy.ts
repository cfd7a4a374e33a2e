/**
 * The notes.md working copy at the start of a turn, and the notes id of a new run.
 * Randomness is injected: the effect layer passes node:crypto's `randomBytes`.
 */
import type { NotesFiles } from "../../ports/notes-store.js";

export interface WorkingCopy {
  /** True when the file was missing and was rewritten from the latest version. */
  restored: boolean;
  text: string;
}

/**
 * The working copy `name`, restored from `latestVersion` when the file is missing. The
 * caller appends the `restore` version row when `restored` is true. Undefined when there is
 * neither a file nor a version (a new run: render and write the first notes).
 */
export async function ensureWorkingCopy(
  files: NotesFiles,
  name: string,
  latestVersion: { text: string } | undefined,
): Promise<WorkingCopy | undefined> {
  const text = await files.read(name);
  if (text !== undefined) return { restored: false, text };
  if (latestVersion === undefined) return undefined;
  await files.write(name, latestVersion.text);
  return { restored: true, text: latestVersion.text };
}

/** A random 128-bit notes id as 32 lowercase hex characters. */
export function newNotesId(randomBytes: (size: number) => Uint8Array): string {
  const bytes = randomBytes(16);
  if (bytes.length !== 16) throw new RangeError(`randomBytes(16) returned ${bytes.length} bytes`);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
