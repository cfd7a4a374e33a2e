/**
 * Publishes report files into a folder as one atomic pair.
 *
 * Layout of a target folder:
 *   .assay/versions/<NNNN>-<random>/report.{json,md,html}   staged, fsynced, validated
 *   current -> .assay/versions/<...>                          switched by rename (atomic)
 *   report.json -> current/report.json (same for .md, .html)  stable names for readers
 *
 * A reader that resolves `current` once sees one consistent version; the stable names
 * always point into whichever version is current. Older versions are pruned, keeping a few
 * so that a reader holding the previous version is not cut off.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, readlink, rename, rm, symlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { describeError, ExternalServiceError } from "../../../core/errors.js";
import type {
  ArtifactFiles,
  ArtifactStore,
  ArtifactTarget,
  CurrentArtifacts,
  PublishedArtifacts,
} from "../../../ports/artifact-store.js";

const FILES = { json: "report.json", markdown: "report.md", html: "report.html" } as const;
const KEEP_VERSIONS = 3;

async function writeDurably(path: string, content: string): Promise<void> {
  const handle = await open(path, "wx", 0o644);
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFolder(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces (or creates) symlink `path` -> `target` atomically. */
async function pointAt(path: string, target: string): Promise<void> {
  const current = await readlink(path).catch(() => undefined);
  if (current === target) return;
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  await symlink(target, temporary);
  await rename(temporary, path);
}

export class FilesystemArtifactStore implements ArtifactStore {
  async publish(
    target: ArtifactTarget,
    files: ArtifactFiles,
    validate: (staged: ArtifactFiles) => string | undefined,
  ): Promise<PublishedArtifacts> {
    try {
      return await this.#publish(target.outDir, files, validate);
    } catch (error) {
      if (error instanceof ExternalServiceError) throw error;
      throw new ExternalServiceError(`cannot publish the report in ${target.outDir}: ${describeError(error)}`, {
        cause: error,
      });
    }
  }

  /** Resolves `current` once, then reads the three files of that version. */
  async current(target: ArtifactTarget): Promise<CurrentArtifacts | undefined> {
    const link = await readlink(join(target.outDir, "current")).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (link === undefined) return undefined;
    const folder = join(target.outDir, link);
    try {
      return {
        version: basename(link),
        files: {
          json: await readFile(join(folder, FILES.json), "utf8"),
          markdown: await readFile(join(folder, FILES.markdown), "utf8"),
          html: await readFile(join(folder, FILES.html), "utf8"),
        },
      };
    } catch (error) {
      throw new ExternalServiceError(`cannot read the report in ${target.outDir}: ${describeError(error)}`, {
        cause: error,
      });
    }
  }

  async #publish(
    target: string,
    files: ArtifactFiles,
    validate: (staged: ArtifactFiles) => string | undefined,
  ): Promise<PublishedArtifacts> {
    const versions = join(target, ".assay", "versions");
    await mkdir(versions, { recursive: true });
    const existing = (await readdir(versions))
      .filter((name) => /^\d{4,}-/.test(name))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    const last = existing.at(-1);
    const number = (last ? Number.parseInt(last, 10) : 0) + 1;
    const version = `${String(number).padStart(4, "0")}-${randomBytes(4).toString("hex")}`;
    const staging = join(versions, version);
    await mkdir(staging);
    await writeDurably(join(staging, FILES.json), files.json);
    await writeDurably(join(staging, FILES.markdown), files.markdown);
    await writeDurably(join(staging, FILES.html), files.html);
    await syncFolder(staging);
    // The new version's entry must be durable before `current` can point at it.
    await syncFolder(versions);

    const staged: ArtifactFiles = {
      json: await readFile(join(staging, FILES.json), "utf8"),
      markdown: await readFile(join(staging, FILES.markdown), "utf8"),
      html: await readFile(join(staging, FILES.html), "utf8"),
    };
    const problem = validate(staged);
    if (problem !== undefined) {
      await rm(staging, { recursive: true, force: true });
      throw new ExternalServiceError(`the staged report failed validation: ${problem}`);
    }

    await pointAt(join(target, "current"), join(".assay", "versions", version));
    for (const name of Object.values(FILES)) await pointAt(join(target, name), join("current", name));
    await syncFolder(target);

    for (const old of existing.slice(0, Math.max(0, existing.length + 1 - KEEP_VERSIONS))) {
      await rm(join(versions, old), { recursive: true, force: true });
    }
    return {
      version,
      paths: {
        json: join(target, FILES.json),
        markdown: join(target, FILES.markdown),
        html: join(target, FILES.html),
      },
    };
  }
}
