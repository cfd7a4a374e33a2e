/**
 * The report projections that are files to download rather than pages to read: PDF and Word.
 * Each renderer loads on first use (pdfkit and docx cost start-up time no other command pays).
 */
import type { ReportDocument } from "../../core/report/report-document.js";

export const REPORT_FILE_FORMATS = {
  pdf: { contentType: "application/pdf", extension: "pdf" },
  docx: {
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    extension: "docx",
  },
} as const;

export type ReportFileFormat = keyof typeof REPORT_FILE_FORMATS;

export const isReportFileFormat = (value: string): value is ReportFileFormat =>
  Object.hasOwn(REPORT_FILE_FORMATS, value);

/** `doc` as a file of `format`. */
export async function renderReportFile(doc: ReportDocument, format: ReportFileFormat): Promise<Buffer> {
  if (format === "pdf") return (await import("./report-pdf.js")).renderPdf(doc);
  return (await import("./report-docx.js")).renderDocx(doc);
}
