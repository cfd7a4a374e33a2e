import type { Store } from "../../../ports/store.js";
import { dataPaths } from "../paths.js";

/** Runs `work` with the store of `--db` (its driver loaded now), closed whatever happens. */
export async function inStore(db: string | undefined, work: (store: Store) => Promise<void>): Promise<void> {
  const { withStore } = await import("../stores.js");
  await withStore(dataPaths(process.env), db, work);
}
