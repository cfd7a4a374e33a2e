/**
 * Plain text and Markdown: the text as written (front matter removed), title from the
 * first heading or first short line.
 */
import { type ExtractedDocument, tidyText } from "./extracted-document.js";

function stripFrontMatter(text: string): string {
  const match = /^---\n[\s\S]*?\n---\n/.exec(text);
  return match ? text.slice(match[0].length) : text;
}

/**
 * The text of an ATX heading line (`## Title ##` -> `\nTitle\n`), or undefined. A closing run
 * of `#` is dropped only after whitespace, so `# C#` keeps its `#`. Linear in the line.
 */
function headingLine(line: string): string | undefined {
  const match = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
  if (!match) return undefined;
  let text = (match[1] ?? "").trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end === 0 || /\s/.test(text[end - 1] ?? "")) text = text.slice(0, end).trimEnd();
  return `\n${text}\n`;
}

/**
 * Markdown to clean text: heading markers, emphasis, link and image syntax, HTML tags and
 * fences removed; headings, list items and table rows kept as their own lines.
 */
export function markdownToText(markdown: string): string {
  const lines = markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) return "";
    // A table's delimiter row: cells of 3+ dashes or aligned with a colon (`:-`, `-:`, `:-:`).
    // Disjoint alternatives and no two adjacent `\s*`, so it stays linear on long lines.
    if (/^\s*(\|\s*)?(:-+:?|-+:|-{3,})\s*(\|\s*(:-+:?|-+:|-{3,})\s*)*(\|\s*)?$/.test(line)) return "";
    if (/^\s*([-*_]\s*){3,}$/.test(line)) return "";
    let text = (headingLine(line) ?? line)
      .replace(/^\s{0,3}>\s?/, "")
      .replace(/^(\s*)[*+]\s+/, "$1- ")
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
      .replace(/<\/?[A-Za-z][^>]*>/g, "")
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
      .replace(/(^|[^*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?!\*)/g, "$1$2")
      .replace(/(^|[^_\w])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, "$1$2")
      .replace(/`([^`]+)`/g, "$1");
    if (/^\s*\|.*\|\s*$/.test(text)) {
      text = text
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((cell) => cell.trim())
        .join(" | ");
    }
    return text;
  });
  return lines.join("\n");
}

export function extractMarkdown(raw: string, fallbackTitle: string): ExtractedDocument {
  const source = stripFrontMatter(raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
  const heading = /^#{1,2}[ \t]+\S.*$/m.exec(source);
  const title = heading ? markdownToText(heading[0]).trim() : "";
  return { title: title || fallbackTitle, text: tidyText(markdownToText(source)), contentType: "text/markdown" };
}

export function extractPlainText(raw: string, fallbackTitle: string): ExtractedDocument {
  const text = tidyText(raw.replace(/^\uFEFF/, ""));
  const first = text.split("\n", 1)[0]?.trim() ?? "";
  const title = first.length > 0 && first.length <= 150 ? first : fallbackTitle;
  return { title, text, contentType: "text/plain" };
}
