/**
 * The notes.md working copy of investigative runs (seed 000 "Working state"): one text per
 * file name, read and replaced whole. The history lives in the store's version rows; this
 * port only holds the copy the loop reads and edits, so it can move (for example to an
 * object store) without touching the loop.
 */
export interface NotesFiles {
  /** The current text of `name`, or undefined when there is none. */
  read(name: string): Promise<string | undefined>;
  /**
   * Replaces `name` with `text` atomically: a reader sees the old text or the new one, never
   * a mix, and a crash leaves one of the two.
   */
  write(name: string, text: string): Promise<void>;
}
