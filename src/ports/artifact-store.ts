/** Where published reports go. A publication switches the three files as one pair. */

export interface ArtifactFiles {
  json: string;
  markdown: string;
  html: string;
}

export interface PublishedArtifacts {
  /** Identifier of this publication within the target (increasing). */
  version: string;
  /** Stable paths (or keys) at which readers find the current files. */
  paths: { json: string; markdown: string; html: string };
}

export interface ArtifactStore {
  /**
   * Stages, validates and atomically switches `files` into `target` (a folder for the
   * file system). Readers see the previous pair or this one, never a mix.
   */
  publish(
    target: string,
    files: ArtifactFiles,
    validate: (staged: ArtifactFiles) => string | undefined,
  ): Promise<PublishedArtifacts>;
}
