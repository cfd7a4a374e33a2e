/**
 * End to end over real documentation pages (issue 20): the Python library reference of Debian's
 * python3.X-doc package (installed by .ci/run) on a loopback web, asked "since which version"
 * questions whose answers are metadata lines under an entry's heading. The report must quote the
 * line of the entry asked about, say which entry it is of, and cite the page. Skipped, with a
 * notice, where no python3.X-doc is installed (in CI it fails instead).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReportDocument, type ReportDocument } from "../../core/report/report-document.js";
import { IN_CI } from "../../testing/chromium.js";
import { runCli } from "../../testing/cli.js";
import {
  type DocQuestion,
  type DocWeb,
  docAnswer,
  docWebArgs,
  installedPythonDocs,
  libraryPages,
  pageQuestions,
  startDocWeb,
} from "../../testing/python-docs.js";
import { tempDir } from "../../testing/temp-dir.js";

const root = installedPythonDocs();
if (!root)
  console.warn(
    "NOTICE: skipping the documentation-page check: no python3.X-doc is installed (apt-get install python3.11-doc).",
  );

/** The entries asked about: an exception, a function on a page without sections, a deprecation. */
const ASKED = [
  { page: "library/json.html", name: "json.JSONDecodeError", kind: "added" },
  { page: "library/gc.html", name: "gc.freeze", kind: "added" },
  { page: "library/math.html", name: "math.factorial", kind: "deprecated" },
] as const;

describe.runIf(!root && IN_CI)("the documentation-page check", () => {
  it("has python3.X-doc installed (.ci/run installs python3.11-doc)", () => {
    throw new Error("no python3.X-doc is installed: apt-get install python3.11-doc (the CI installs it)");
  });
});

describe.skipIf(!root)("assay run --web over the Python library reference (skipped without python3.X-doc)", () => {
  let web: DocWeb;
  const temp = tempDir();
  beforeAll(async () => {
    web = await startDocWeb(root as string, libraryPages(root as string));
  });
  afterAll(async () => {
    await web?.close();
    temp.cleanup();
  });

  for (const asked of ASKED) {
    it(`answers "${asked.kind === "added" ? "In which version was" : "Since which version is"} ${asked.name} …?" from the line under its heading`, async () => {
      const question = pageQuestions(readFileSync(join(root as string, asked.page), "utf8"), asked.page).find(
        (entry: DocQuestion) => entry.name === asked.name && entry.kind === asked.kind,
      );
      expect(question, `${asked.page} no longer has ${asked.name}'s ${asked.kind} line`).toBeDefined();
      if (!question) return;
      const out = join(temp.path, asked.name);
      const result = await runCli(["run", question.question, ...docWebArgs(web), "--out", out, "--json", "--quiet"], {
        home: temp.path,
        timeoutMs: 90_000,
      });
      expect(result.code, result.stderr).toBe(0);
      const parsed = parseReportDocument(JSON.parse(readFileSync(join(out, "report.json"), "utf8")));
      if (!parsed.ok) throw new Error(parsed.error);
      const report: ReportDocument = parsed.value;
      expect(docAnswer(report, question, web)).toEqual({
        read: true,
        versionQuoted: true,
        answered: true,
        inAnswerBlock: true,
      });
      // The finding names the entry and quotes the line; its evidence says where in the page the line stands.
      const finding = [...report.directFindings, ...report.findings].find((item) =>
        item.text.includes(`version ${question.version}`),
      );
      expect(finding?.text).toContain(asked.name.split(".").at(-1));
      const quote = finding?.citations[0]?.evidence?.quotes.find((entry) =>
        entry.text.includes(`version ${question.version}`),
      );
      expect(quote?.location).toContain(asked.name.split(".").at(-1));
    });
  }
});
