/**
 * The contract every ArtifactStore passes. Run it from a test file with a factory that opens
 * a fresh store and hands out targets (a folder, a run) on it.
 */
import { describe, expect, it } from "vitest";
import { ExternalServiceError } from "../../core/errors.js";
import type { ArtifactFiles, ArtifactStore, ArtifactTarget } from "../../ports/artifact-store.js";

export interface OpenedArtifactStore {
  artifacts: ArtifactStore;
  /** A target nothing was published to yet. */
  newTarget(): Promise<ArtifactTarget>;
  /** A second store on the same backing storage, as a resumed run's process opens it. */
  reopen(): ArtifactStore;
  cleanup(): Promise<void>;
}

export interface ArtifactStoreFactory {
  open(): Promise<OpenedArtifactStore>;
}

/** A pair whose three files all carry `marker`, so that a mixed pair is visible. */
export const markedPair = (marker: string): ArtifactFiles => ({
  json: `${JSON.stringify({ marker, text: "Ünïcödé — 電池 🔋" }, null, 2)}\n`,
  markdown: `# Report ${marker}\n\nBody of ${marker}.\n`,
  html: `<!DOCTYPE html>\n<html><body><h1>Report ${marker}</h1></body></html>\n`,
});

/** The marker every file of `files` carries, or "mixed". */
export function pairMarker(files: ArtifactFiles): string {
  const fromJson = (JSON.parse(files.json) as { marker: string }).marker;
  const fromMarkdown = /^# Report (\S+)/.exec(files.markdown)?.[1];
  const fromHtml = /<h1>Report (\S+)<\/h1>/.exec(files.html)?.[1];
  return fromJson === fromMarkdown && fromJson === fromHtml ? fromJson : "mixed";
}

const accept = (): undefined => undefined;
const numberOf = (version: string): number => Number.parseInt(version, 10);

export function runArtifactContract(name: string, factory: ArtifactStoreFactory): void {
  const withStore = async (test: (opened: OpenedArtifactStore) => Promise<void>) => {
    const opened = await factory.open();
    try {
      await test(opened);
    } finally {
      await opened.cleanup();
    }
  };

  describe(`ArtifactStore contract: ${name}`, () => {
    it("has no current pair before the first publication", () =>
      withStore(async ({ artifacts, newTarget }) => {
        expect(await artifacts.current(await newTarget())).toBeUndefined();
      }));

    it("validates the staged files and makes exactly them current", () =>
      withStore(async ({ artifacts, newTarget }) => {
        const target = await newTarget();
        const files = { ...markedPair("one"), markdown: "# Report one\n\nA NUL \u0000 and a lone é\r\n" };
        const seen: ArtifactFiles[] = [];
        const published = await artifacts.publish(target, files, (staged) => {
          seen.push(staged);
          return undefined;
        });
        expect(seen).toEqual([files]);
        expect(numberOf(published.version)).toBe(1);
        expect(Object.keys(published.paths).sort()).toEqual(["html", "json", "markdown"]);
        expect(await artifacts.current(target)).toEqual({ version: published.version, files });
      }));

    it("numbers versions upwards and keeps serving the newest pair", () =>
      withStore(async ({ artifacts, newTarget }) => {
        const target = await newTarget();
        const versions: number[] = [];
        for (const marker of ["a", "b", "c", "d", "e"]) {
          versions.push(numberOf((await artifacts.publish(target, markedPair(marker), accept)).version));
        }
        expect(versions).toEqual([1, 2, 3, 4, 5]);
        const current = await artifacts.current(target);
        expect(current && pairMarker(current.files)).toBe("e");
        expect(current && numberOf(current.version)).toBe(5);
      }));

    it("never makes a pair that fails validation current, and keeps the previous one", () =>
      withStore(async ({ artifacts, newTarget }) => {
        const target = await newTarget();
        const first = await artifacts.publish(target, markedPair("good"), accept);
        await expect(artifacts.publish(target, markedPair("bad"), () => "no title")).rejects.toThrow(
          ExternalServiceError,
        );
        await expect(artifacts.publish(target, markedPair("bad"), () => "no title")).rejects.toThrow(/no title/);
        const current = await artifacts.current(target);
        expect(current?.version).toBe(first.version);
        expect(current && pairMarker(current.files)).toBe("good");
        const next = await artifacts.publish(target, markedPair("later"), accept);
        expect(numberOf(next.version)).toBe(2);
      }));

    it("continues the versions in a reopened store (a resumed run)", () =>
      withStore(async ({ artifacts, newTarget, reopen }) => {
        const target = await newTarget();
        await artifacts.publish(target, markedPair("before"), accept);
        await artifacts.publish(target, markedPair("crash"), accept);
        const resumed = reopen();
        const after = await resumed.publish(target, markedPair("after"), accept);
        expect(numberOf(after.version)).toBe(3);
        const current = await artifacts.current(target);
        expect(current && pairMarker(current.files)).toBe("after");
      }));

    it("keeps targets apart", () =>
      withStore(async ({ artifacts, newTarget }) => {
        const one = await newTarget();
        const two = await newTarget();
        await artifacts.publish(one, markedPair("one"), accept);
        expect(await artifacts.current(two)).toBeUndefined();
        const published = await artifacts.publish(two, markedPair("two"), accept);
        expect(numberOf(published.version)).toBe(1);
        const first = await artifacts.current(one);
        expect(first && pairMarker(first.files)).toBe("one");
      }));

    it("never shows a concurrent reader a mixed pair while pairs are switched", () =>
      withStore(async ({ artifacts, newTarget, reopen }) => {
        const target = await newTarget();
        await artifacts.publish(target, markedPair("v0"), accept);
        const reader = reopen();
        let publishing = true;
        const seen = new Set<string>();
        let reads = 0;
        const reading = (async () => {
          while (publishing) {
            const current = await reader.current(target);
            if (current) seen.add(pairMarker(current.files));
            reads += 1;
          }
        })();
        try {
          for (let index = 1; index <= 25; index += 1) {
            await artifacts.publish(target, markedPair(`v${index}`), accept);
          }
        } finally {
          publishing = false;
          await reading;
        }
        expect(reads).toBeGreaterThan(0);
        expect(seen.has("mixed")).toBe(false);
        const last = await reader.current(target);
        expect(last && pairMarker(last.files)).toBe("v25");
      }));
  });
}
