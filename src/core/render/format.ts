/** Reader-facing formatting shared by both projections (pure). */
import type { Citation, ReportDocument, Verification, VerificationStatus } from "../report/report-document.js";

/** `2026-12-02T10:44:26.726Z` -> `2026-12-02 10:44 UTC`; anything else is returned as is. */
export function readableTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** `[2: passage 3]`, `[2: passages 3, 5; 4: passage 1]`: reader-safe citation text. Pure. */
export function citationText(citations: readonly { number: number; passages: readonly number[] }[]): string {
  const parts = citations.map(
    (citation) =>
      `${citation.number}: passage${citation.passages.length > 1 ? "s" : ""} ${citation.passages.join(", ")}`,
  );
  return `[${parts.join("; ")}]`;
}

/** "A", "A and B", "A, B and C". Pure. */
export function spokenList(items: readonly (string | number)[]): string {
  if (items.length <= 1) return String(items[0] ?? "");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "finding 1", "findings 1 and 3", "findings 1, 2 and 4". */
export function findingList(numbers: readonly number[]): string {
  if (numbers.length === 1) return `finding ${numbers[0]}`;
  return `findings ${spokenList(numbers)}`;
}

/** How a report names a folder it read: `the local folder “notes”`. Pure. */
export function folderScopeLabel(label: string): string {
  return `the local folder “${label}”`;
}

/** How a report names a folder and the web read together. Pure. */
export function hybridScopeLabel(folderLabel: string, webLabel: string): string {
  return `${folderScopeLabel(folderLabel)} and ${webLabel}`;
}

/** The word each projection shows before an item's text; a not-checked item has none (the summary line says so). */
export const VERIFICATION_LABEL: Record<VerificationStatus, string> = {
  verified: "Verified",
  unverified: "Unverified",
  contested: "Contested",
  "not-checked": "",
};

/** One line of an item's verification: a lead, the sources it names and, for a contradiction, the words quoted. */
export interface VerificationLine {
  lead: string;
  citations: readonly Citation[];
  quotes: readonly string[];
}

/**
 * What a reader needs to audit an item's status, the same in both projections: for a verified
 * item every source that states it and the challenge it survived; for a contested one the
 * sources on each side, the contradicting passages quoted. Pure.
 */
export function verificationLines(verification: Verification): VerificationLine[] {
  const lines: VerificationLine[] = [];
  const quotes = (citations: readonly Citation[]) =>
    citations.flatMap((citation) => (citation.quote ? [citation.quote] : []));
  if (verification.status === "verified") {
    lines.push({
      lead: verification.supports.length > 1 ? "Stated independently by" : "Stated by",
      citations: verification.supports,
      quotes: [],
    });
    if (verification.challenge)
      lines.push({ lead: `Challenge survived: ${verification.challenge}`, citations: [], quotes: [] });
  }
  if (verification.status === "contested") {
    if (verification.supports.length > 0)
      lines.push({ lead: "Stated by", citations: verification.supports, quotes: quotes(verification.supports) });
    lines.push({
      lead: "Contradicted by",
      citations: verification.contradicts,
      quotes: quotes(verification.contradicts),
    });
  }
  return lines;
}

const counted = (n: number, what: string): string => `${n} ${what}`;

/**
 * The line that counts what the report shows, by verification status: "Verification: 2 of 5
 * findings verified (independent sources and a survived challenge), 1 contested, 2 unverified."
 * When nothing was checked it says so. Empty without findings. Pure.
 */
export function verificationSummary(doc: ReportDocument): string {
  const items = [...doc.directFindings, ...doc.findings];
  if (items.length === 0) return "";
  const count = (status: VerificationStatus) => items.filter((item) => item.verification.status === status).length;
  const notChecked = count("not-checked");
  if (notChecked === items.length)
    return "Verification: not checked. This research cites the passages of each finding but does not cross-check findings against other sources.";
  const contested = count("contested");
  const findings = `of ${items.length} ${items.length === 1 ? "finding" : "findings"}`;
  // Nothing verified or left unverified: say what was contested, without a "0 verified" no check earned.
  if (count("verified") + count("unverified") === 0)
    return `Verification: ${counted(contested, findings)} contested (the sources read contradict ${contested === 1 ? "it" : "them"}; the contradicting passages are quoted)${notChecked > 0 ? `, ${notChecked} not checked` : ""}.`;
  const parts = [
    `${counted(count("verified"), `of ${items.length} ${items.length === 1 ? "finding" : "findings"}`)} verified (stated by independent sources and survived a challenge)`,
    ...(count("contested") > 0 ? [`${count("contested")} contested (sources contradict it)`] : []),
    ...(count("unverified") > 0 ? [`${count("unverified")} unverified`] : []),
    ...(notChecked > 0 ? [`${notChecked} not checked`] : []),
  ];
  return `Verification: ${parts.join(", ")}.`;
}
