/**
 * Jupyter notebooks (nbformat 4): each cell a section cited as "cell N" (its position in the
 * notebook), Markdown as text, code as written, and the outputs the notebook saved as text
 * (plain text, else HTML read as text; an error as its name and message). Nothing is run.
 */
import { z } from "zod";
import { UnreadableDocumentError } from "./archive.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { SectionedText } from "./sectioned-text.js";
import { markdownToText } from "./text-extractor.js";

/** Notebook text is a string or a list of lines. */
const multiline = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value.join("") : value));

const outputSchema = z.object({
  output_type: z.string(),
  text: multiline.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  ename: z.string().optional(),
  evalue: z.string().optional(),
});

const notebookSchema = z.object({
  nbformat: z.number().int(),
  metadata: z.object({ title: z.string().optional() }).passthrough().optional(),
  cells: z.array(
    z.object({
      cell_type: z.string(),
      source: multiline,
      outputs: z.array(outputSchema).optional(),
    }),
  ),
});

type Output = z.infer<typeof outputSchema>;

function outputText(output: Output, htmlText: (html: string) => string): string {
  if (output.output_type === "stream") return output.text ?? "";
  if (output.output_type === "error") return [output.ename, output.evalue].filter(Boolean).join(": ");
  const data = output.data ?? {};
  const plain = multiline.safeParse(data["text/plain"]);
  if (plain.success) return plain.data;
  const html = multiline.safeParse(data["text/html"]);
  return html.success ? htmlText(html.data) : "";
}

export async function extractNotebook(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8").decode(bytes));
  } catch (error) {
    throw new UnreadableDocumentError(`not a notebook: malformed JSON (${(error as Error).message})`);
  }
  const version = (json as { nbformat?: unknown } | null)?.nbformat;
  if (typeof version === "number" && version < 4)
    throw new UnreadableDocumentError(
      `notebook format ${version} is not read; convert it with: jupyter nbconvert --to notebook --nbformat 4`,
    );
  const parsed = notebookSchema.safeParse(json);
  if (!parsed.success)
    throw new UnreadableDocumentError(`not a notebook: ${parsed.error.issues[0]?.message ?? "unexpected shape"}`);
  const { htmlFragmentText } = await import("./html-extractor.js");
  const out = new SectionedText();
  let title = parsed.data.metadata?.title?.trim() ?? "";
  parsed.data.cells.forEach((cell, index) => {
    const body =
      cell.cell_type === "markdown"
        ? markdownToText(cell.source)
        : [cell.source, ...(cell.outputs ?? []).map((output) => outputText(output, htmlFragmentText))].join("\n\n");
    if (!title && cell.cell_type === "markdown") title = /^#{1,6}\s+(.+)$/m.exec(cell.source)?.[1]?.trim() ?? "";
    out.add(`cell ${index + 1}`, body);
  });
  return {
    title: title || fallbackTitle,
    text: out.text,
    contentType: "application/x-ipynb+json",
    sections: out.sections,
  };
}
