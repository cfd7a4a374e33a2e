/** Where published reports go. A publication switches the three files as one pair. */

export interface ArtifactFiles {
  json: string;
  markdown: string;
  html: string;
}

/**
 * Which run's report, and the folder the run names for it. The file system publishes into
 * `outDir`; the PostgreSQL store keys the report by `runId` (and leaves `outDir` alone).
 */
export interface ArtifactTarget {
  runId: number;
  outDir: string;
}

export interface PublishedArtifacts {
  /** Identifier of this publication within the target (increasing: `0001`, `0002`, … optionally with a suffix). */
  version: string;
  /** Stable paths (or keys) at which readers find the current files. */
  paths: { json: string; markdown: string; html: string };
}

/** The pair a reader sees: one version, all three files of it. */
export interface CurrentArtifacts {
  version: string;
  files: ArtifactFiles;
}

export interface ArtifactStore {
  /**
   * Stages, validates and atomically switches `files` into `target`. Readers see the
   * previous pair or this one, never a mix. A pair that fails `validate` is never current.
   */
  publish(
    target: ArtifactTarget,
    files: ArtifactFiles,
    validate: (staged: ArtifactFiles) => string | undefined,
  ): Promise<PublishedArtifacts>;
  /** The current pair of `target`, read as one version; undefined when nothing was published. */
  current(target: ArtifactTarget): Promise<CurrentArtifacts | undefined>;
}
