import { join } from "node:path";
import { tempDir } from "../../../testing/temp-dir.js";
import { runArtifactContract } from "../artifact-contract.js";
import { FilesystemArtifactStore } from "./filesystem-artifact-store.js";

runArtifactContract("file system", {
  async open() {
    const dir = tempDir("assay-artifacts-");
    let next = 0;
    return {
      artifacts: new FilesystemArtifactStore(),
      async newTarget() {
        next += 1;
        return { runId: next, outDir: join(dir.path, `run-${next}`) };
      },
      reopen: () => new FilesystemArtifactStore(),
      async cleanup() {
        dir.cleanup();
      },
    };
  },
});
