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
 * Markdown to clean text: heading markers, emphasis, link and image syntax, HTML tags and
 * fences removed; headings, list items and table rows kept as their own lines.
 */
export function markdownToText(markdown: string): string {
  const lines = markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) return "";
    // A table's delimiter row: cells of 3+ dashes or aligned with a colon (`:-`, `-:`, `:-:`). Disjoint alternatives.
    if (/^\s*\|?\s*(:-+:?|-+:|-{3,})\s*(\|\s*(:-+:?|-+:|-{3,})\s*)*\|?\s*$/.test(line)) return "";
    if (/^\s*([-*_]\s*){3,}$/.test(line)) return "";
    let text = line
      .replace(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/, "\n$1\n")
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
  const heading = /^#{1,2}[ \t]+(.+?)[ \t#]*$/m.exec(source);
  const title = heading?.[1] ? markdownToText(heading[1]).trim() : "";
  return { title: title || fallbackTitle, text: tidyText(markdownToText(source)), contentType: "text/markdown" };
}

export function extractPlainText(raw: string, fallbackTitle: string): ExtractedDocument {
  const text = tidyText(raw.replace(/^\uFEFF/, ""));
  const first = text.split("\n", 1)[0]?.trim() ?? "";
  const title = first.length > 0 && first.length <= 150 ? first : fallbackTitle;
  return { title, text, contentType: "text/plain" };
}
