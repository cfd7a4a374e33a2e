/** A follow-up's or a revision's lineage block, from its document and its parent's (pure). */
import type { ReportDocument, ReportLineage } from "../report/report-document.js";
import { readerLine } from "../text.js";
import { diffReports } from "./report-diff.js";

export interface LineageInput {
  relation: "follow-up" | "revision";
  parentRun: number;
  parentQuestion: string;
  /** The parent's current report (undefined when it has none to compare with). */
  parentReport: ReportDocument | undefined;
  instruction: string;
  /** A revision: this report's version. */
  version?: number;
  droppedByInstruction: number;
  /** Ids of the sources carried over from the parent. */
  carried: ReadonlySet<string>;
}

/** The reference numbers of the parent report's sources, by source id: a child's carried sources keep them. */
export function parentNumbers(parent: ReportDocument | undefined): Map<string, number> {
  return new Map(
    [...(parent?.sources ?? []), ...(parent?.reviewedSources ?? [])].map((entry) => [entry.id, entry.number]),
  );
}

export function reportLineage(doc: ReportDocument, input: LineageInput): ReportLineage {
  const revision = input.relation === "revision";
  const listed = [...doc.sources, ...doc.reviewedSources];
  const fromParent = listed.filter((entry) => input.carried.has(entry.id)).length;
  const diff = input.parentReport ? diffReports(input.parentReport, doc) : undefined;
  const findings = [...doc.directFindings, ...doc.findings];
  return {
    relation: input.relation,
    parentRun: input.parentRun,
    // What the user typed, as one reader-safe line (as the question is).
    parentQuestion: readerLine(input.parentQuestion, 2_000) || `run ${input.parentRun}`,
    ...(revision && readerLine(input.instruction, 2_000) !== ""
      ? { instruction: readerLine(input.instruction, 2_000) }
      : {}),
    ...(revision && input.version !== undefined ? { version: input.version } : {}),
    newFindings: diff ? diff.findings.added.map((item) => item.number) : findings.map((item) => item.number),
    repeatedFindings: (diff?.findings.unchanged ?? []).map((pair) => ({ number: pair.to, parentNumber: pair.from })),
    changedFindings: (diff?.findings.changed ?? []).map((item) => ({
      number: item.to.number,
      parentNumber: item.from.number,
      changes: item.changes,
    })),
    // A preliminary document has no findings yet: nothing is removed until the final one says so.
    removedFindings:
      revision && diff && !doc.preliminary
        ? diff.findings.removed.map((item) => ({ parentNumber: item.number, text: item.text }))
        : [],
    droppedByInstruction: input.droppedByInstruction,
    sourcesFromParent: fromParent,
    sourcesNew: listed.length - fromParent,
  };
}
