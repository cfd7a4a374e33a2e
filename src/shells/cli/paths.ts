/** Where Assay keeps its data: ASSAY_HOME, or the per-user data directory. Shells only. */
import { join } from "node:path";
import envPaths from "env-paths";

export interface DataPaths {
  home: string;
  database: string;
  indexDir: string;
  runsDir: string;
  /** notes.md working copies of investigative runs (`research_notes_dir`). */
  notesDir: string;
}

export function dataPaths(environment: NodeJS.ProcessEnv): DataPaths {
  const home = environment.ASSAY_HOME || envPaths("assay", { suffix: "" }).data;
  return {
    home,
    database: join(home, "assay.db"),
    indexDir: join(home, "corpus-index"),
    runsDir: join(home, "runs"),
    notesDir: join(home, "notes"),
  };
}
