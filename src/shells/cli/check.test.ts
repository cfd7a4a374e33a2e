/**
 * `assay check` as a user runs it: a Markdown draft citing files of its folder, a JSON Lines
 * file, the verdicts on stdout (Markdown, or one JSON object per claim with --json), the
 * report files with --out (source text escaped in HTML), and an exit status a CI job can use.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(files: Record<string, string>): string {
  const dir = tempDir("assay-check-");
  cleanups.push(dir.cleanup);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir.path, name, ".."), { recursive: true });
    writeFileSync(join(dir.path, name), text);
  }
  return dir.path;
}

const SOURCES = {
  "sources/bridge.md":
    "# The Harbour Bridge\n\nThe Harbour Bridge opened to traffic in 1932. It carries eight lanes.\n",
  "sources/survey.md":
    "# Survey <script>alert(1)</script>\n\nThe 2.4-mile Fjell Tunnel was found to be in good condition. <b>bold</b>\n",
};

describe("assay check", () => {
  it("checks a draft's cited sentences and fails the run when one is contradicted or not found", async () => {
    const dir = folder({
      ...SOURCES,
      "draft.md":
        "# Draft\n\nThe Harbour Bridge opened to traffic in 1932 [1]. The Fjell Tunnel is 6.1 km long [2]. The bridge was designed by Ada Holm [3].\n\n## References\n\n[1]: sources/bridge.md\n[2]: sources/survey.md\n[3]: ../outside.md\n",
    });
    const out = join(dir, "check");
    const result = await runCli(["check", join(dir, "draft.md"), "--out", out], { home: dir });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("## claim-1: Supported");
    expect(result.stdout).toContain("## claim-2: Contradicted");
    expect(result.stdout).toContain(
      "Says otherwise (sources/survey.md): “The 2.4-mile Fjell Tunnel was found to be in good condition.",
    );
    // A path that leaves the folder is refused, in words, and the claim is not found.
    expect(result.stdout).toMatch(
      /## claim-3: Not found in its sources[\s\S]*Not read \(\.\.\/outside\.md\): .*'\.\.'/,
    );
    expect(result.stderr).toContain("3 claims checked: 1 supported, 1 contradicted, 1 not found in its sources.");
    const html = readFileSync(join(out, "check.html"), "utf8");
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).toContain("Contradicted");
    const json = JSON.parse(readFileSync(join(out, "check.json"), "utf8")) as { claims: { verdict: string }[] };
    expect(json.claims.map((claim) => claim.verdict)).toEqual(["supported", "contradicted", "not-found"]);
    expect(readFileSync(join(out, "check.md"), "utf8")).toContain("## claim-1: Supported");
  }, 60_000);

  it("prints one JSON object per claim of a JSON Lines file, and passes when every claim is supported", async () => {
    const dir = folder({
      ...SOURCES,
      "claims.jsonl": [
        JSON.stringify({
          id: "bridge",
          claim: "The Harbour Bridge opened to traffic in 1932.",
          sources: [{ path: "sources/bridge.md" }],
        }),
        JSON.stringify({
          id: "hesby",
          claim: "Hesby has 2150 residents.",
          sources: [{ text: "Hesby has 2,150 residents." }],
        }),
      ].join("\n"),
    });
    const result = await runCli(["check", join(dir, "claims.jsonl"), "--json"], { home: dir });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; verdict: string });
    expect(lines.map((line) => [line.id, line.verdict])).toEqual([
      ["bridge", "supported"],
      ["hesby", "supported"],
    ]);
  }, 60_000);

  it("says what is wrong with a file that cites nothing, or that cannot be read", async () => {
    const dir = folder({ "plain.md": "# Notes\n\nNothing here cites a source.\n" });
    const none = await runCli(["check", join(dir, "plain.md")], { home: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/has no claim that cites a source\. Cite sources with \[1\] and a reference list/);
    const missing = await runCli(["check", join(dir, "nothing.md")], { home: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nothing\.md: check the path/);
    expect(`${none.stderr}${missing.stderr}`).not.toMatch(/\n\s+at /);
  }, 60_000);
});
