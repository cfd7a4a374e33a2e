/** `assay library list | search | forget`: the sources the user's runs have read, kept once each. */
import { libraryEntryLocation, libraryIndex } from "../../adapters/library/library-scope.js";
import { UserError } from "../../core/errors.js";
import { readableTime } from "../../core/render/format.js";
import { type LibraryEntry, LOCAL_USER, type Store } from "../../ports/store.js";

function entryLine(entry: LibraryEntry): string {
  const runs =
    entry.firstRunId === entry.lastRunId ? `run ${entry.firstRunId}` : `runs ${entry.firstRunId}–${entry.lastRunId}`;
  return `${String(entry.id).padStart(5)}  ${entry.title || "Untitled document"} — ${libraryEntryLocation(entry)} (read ${readableTime(entry.capturedAt)}, ${runs})`;
}

export async function listLibrary(
  store: Store,
  options: { json?: boolean; limit: number },
  out: NodeJS.WritableStream,
): Promise<void> {
  const entries = await store.listLibrary(LOCAL_USER, { limit: options.limit });
  if (options.json) {
    out.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) {
    out.write("The library is empty: every source a run reads is kept here.\n");
    return;
  }
  for (const entry of entries) out.write(`${entryLine(entry)}\n`);
}

export async function searchLibrary(
  store: Store,
  terms: string,
  options: { json?: boolean; limit: number },
  out: NodeJS.WritableStream,
): Promise<void> {
  if (terms.trim() === "") throw new UserError("give words to search the library for");
  const index = await libraryIndex(store, LOCAL_USER);
  try {
    const hits = index.search(terms, options.limit);
    if (options.json) {
      out.write(`${JSON.stringify(hits, null, 2)}\n`);
      return;
    }
    if (hits.length === 0) out.write(`Nothing in the library matches “${terms}”.\n`);
    for (const hit of hits)
      out.write(`${hit.anchor.replace("library:", "").padStart(5)}  ${hit.title}\n       ${hit.snippet}\n`);
  } finally {
    index.close();
  }
}

export async function forgetLibraryEntry(store: Store, id: number, out: NodeJS.WritableStream): Promise<number> {
  const removed = await store.forgetLibraryEntry(LOCAL_USER, id);
  if (!removed) throw new UserError(`there is no library entry ${id}; see assay library list`);
  out.write(`Forgot library entry ${id}. The runs that cite it keep their copy.\n`);
  return 0;
}
