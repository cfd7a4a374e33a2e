/** Reading stored reports: version 1 (no verification data) and version 2 (one quoted sentence) documents are read as version 3. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderMarkdown, unescapeMarkdown } from "../render/markdown.js";
import { checkReportClosure, parseReportDocument, REPORT_SCHEMA_VERSION } from "./report-document.js";

/** A real report.json written by Assay before schema version 2 (an investigative run on examples/corpus). */
const V1 = JSON.parse(readFileSync(new URL("./__fixtures__/report-v1.json", import.meta.url), "utf8")) as {
  schemaVersion: number;
  directFindings: { text: string }[];
  findings: { text: string }[];
};

/** A real report.json of schema version 2 (an investigative run that found a claim contested). */
const V2 = JSON.parse(readFileSync(new URL("./__fixtures__/report-v2.json", import.meta.url), "utf8")) as {
  schemaVersion: number;
};

describe("parseReportDocument", () => {
  it("reads a version 2 report: each quoted sentence becomes its citation's evidence, cut on both sides", () => {
    expect(V2.schemaVersion).toBe(2);
    const parsed = parseReportDocument(V2);
    if (!parsed.ok) throw new Error(parsed.error);
    const doc = parsed.value;
    const [contested] = doc.directFindings;
    expect(contested?.verification.status).toBe("contested");
    const [against] = contested?.verification.contradicts ?? [];
    expect(against?.evidence).toEqual({
      quotes: [
        {
          text: "It is false that Sony began selling the first commercial lithium-ion rechargeable battery in 1991.",
          cutStart: true,
          truncated: true,
          chunkId: against?.chunkIds[0],
          passage: against?.passages[0],
        },
      ],
      omitted: 0,
    });
    // Version 2 recorded no evidence for the finding's own citation: none is shown, none is made up.
    expect(contested?.citations.every((citation) => citation.evidence === undefined)).toBe(true);
    expect(checkReportClosure(doc).ok).toBe(true);
    expect(unescapeMarkdown(renderMarkdown(doc))).toContain(
      "> Contradicting passage [2: passage 1]: “… It is false that Sony began selling the first commercial lithium-ion rechargeable battery in 1991. …”",
    );
  });

  it("reads a version 1 report: the unverified prefix becomes the status, every other item is not checked", () => {
    expect(V1.schemaVersion).toBe(1);
    const parsed = parseReportDocument(V1);
    if (!parsed.ok) throw new Error(parsed.error);
    const doc = parsed.value;
    expect(doc.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    const before = [...V1.directFindings, ...V1.findings].map((finding) => finding.text);
    const after = [...doc.directFindings, ...doc.findings];
    expect(after.map((finding) => finding.text)).toEqual(before.map((text) => text.replace(/^Unverified: /, "")));
    expect(after.map((finding) => finding.verification.status)).toEqual(
      before.map((text) => (text.startsWith("Unverified: ") ? "unverified" : "not-checked")),
    );
    // Version 1 did not record what verified a finding: nothing is shown as verified.
    expect(after.some((finding) => finding.verification.status === "verified")).toBe(false);
    expect(checkReportClosure(doc).ok).toBe(true);
    const markdown = renderMarkdown(doc);
    expect(markdown).toContain("**Unverified:** The development at Sony was led by Yoshio Nishi");
    expect(markdown).not.toContain("Unverified: Unverified");
  });

  it("refuses an unknown version and a version 2 finding without its verification", () => {
    expect(parseReportDocument({ ...V1, schemaVersion: 4 }).ok).toBe(false);
    const upgraded = parseReportDocument(V1);
    if (!upgraded.ok) throw new Error(upgraded.error);
    const [first, ...rest] = upgraded.value.directFindings;
    const { verification: _dropped, ...bare } = first ?? { verification: null };
    expect(parseReportDocument({ ...upgraded.value, directFindings: [bare, ...rest] }).ok).toBe(false);
  });

  it("refuses a verified finding without a supporting source or without its challenge, and a contested one without the other side", () => {
    const upgraded = parseReportDocument(V1);
    if (!upgraded.ok) throw new Error(upgraded.error);
    const [first, ...rest] = upgraded.value.directFindings;
    if (!first) throw new Error("no finding");
    const citation = first.citations[0];
    if (!citation) throw new Error("no citation");
    const verified = (verification: object) =>
      parseReportDocument({ ...upgraded.value, directFindings: [{ ...first, verification }, ...rest] }).ok;
    expect(verified({ status: "verified", supports: [], contradicts: [], challenge: "survived" })).toBe(false);
    expect(verified({ status: "verified", supports: [citation], contradicts: [] })).toBe(false);
    expect(verified({ status: "contested", supports: [citation], contradicts: [] })).toBe(false);
    expect(verified({ status: "verified", supports: [citation], contradicts: [], challenge: "survived" })).toBe(true);
  });
});
