/**
 * Plain text and Markdown: the text as written (front matter removed), title from the
 * first heading or first short line.
 */
import { type ExtractedDocument, tidyText } from "./extracted-document.js";
import { MARK_CHARS, marked, outlined } from "./outline.js";

function stripFrontMatter(text: string): string {
  const match = /^---\n[\s\S]*?\n---\n/.exec(text);
  return match ? text.slice(match[0].length) : text;
}

/**
 * An ATX heading line's level and text (`## Title ##` -> 2, `Title`), or undefined. A closing run
 * of `#` is dropped only after whitespace, so `# C#` keeps its `#`. Linear in the line.
 */
function headingOf(line: string): { level: number; text: string } | undefined {
  const match = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(line);
  if (!match) return undefined;
  let text = (match[2] ?? "").trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end === 0 || /\s/.test(text[end - 1] ?? "")) text = text.slice(0, end).trimEnd();
  return { level: (match[1] ?? "#").length, text };
}

/** Every inline mark below holds one of these characters: a line without any has none to take out. */
const INLINE_MARK = /[[<*_`]/;

/** Links, images, tags, emphasis and code marks of one line taken out, their text kept. */
const inlineText = (line: string): string =>
  !INLINE_MARK.test(line)
    ? line
    : line
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
        .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
        .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
        .replace(/<\/?[A-Za-z][^>]*>/g, "")
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
        .replace(/(^|[^*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?!\*)/g, "$1$2")
        .replace(/(^|[^_\w])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, "$1$2")
        .replace(/`([^`]+)`/g, "$1");

/**
 * Markdown to clean text: heading markers, emphasis, link and image syntax, HTML tags and
 * fences removed; headings, list items and table rows kept as their own lines. `onHeading`
 * gives what to put before a heading's text (a section mark), given its level and clean text.
 */
export function markdownToText(markdown: string, onHeading?: (level: number, text: string) => string): string {
  const lines = markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) return "";
    // A table's delimiter row: cells of 3+ dashes or aligned with a colon (`:-`, `-:`, `:-:`).
    // Disjoint alternatives and no two adjacent `\s*`, so it stays linear on long lines.
    if (/^\s*(\|\s*)?(:-+:?|-+:|-{3,})\s*(\|\s*(:-+:?|-+:|-{3,})\s*)*(\|\s*)?$/.test(line)) return "";
    if (/^\s*([-*_]\s*){3,}$/.test(line)) return "";
    const heading = headingOf(line);
    if (heading) {
      const text = inlineText(heading.text).trim();
      return `\n${text && onHeading ? onHeading(heading.level, text) : ""}${text}\n`;
    }
    let text = inlineText(line.replace(/^\s{0,3}>\s?/, "").replace(/^(\s*)[*+]\s+/, "$1- "));
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

/** Markdown's text, title (its first `#` or `##` heading) and sections, one at each heading, named by its path of headings. */
export function extractMarkdown(raw: string, fallbackTitle: string): ExtractedDocument {
  const source = stripFrontMatter(raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")).replace(MARK_CHARS, "");
  const heading = /^#{1,2}[ \t]+\S.*$/m.exec(source);
  const title = (heading ? markdownToText(heading[0]).trim() : "") || fallbackTitle;
  const paths: string[][] = [];
  const open: string[] = [];
  const text = markdownToText(source, (level, name) => {
    open.length = level - 1;
    open[level - 1] = name;
    paths.push(open.filter(Boolean));
    return marked(paths.length - 1);
  });
  const outline = outlined(tidyText(text), paths, title);
  return {
    title,
    text: outline.text,
    contentType: "text/markdown",
    ...(outline.sections.length > 0 ? { sections: outline.sections } : {}),
  };
}

/** A plain-text heading: no sentence's end, opening with a capital or a section number ("2. The baseline"). */
const HEADING_LINE = /^(?:\d+(?:\.\d+)*\.?\s+)?\p{Lu}(?:(?![.!?;]\s).)*[^.!?;,]$/u;
const HEADING_CHARS = 80;
const HEADING_WORDS = 10;
/** A label that opens a list ("Strengths:"), a heading under the heading before it. */
const LABEL_LINE = /^\p{Lu}[\p{L}-]*(?:\s+[\p{L}-]+){0,2}:$/u;
const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/u;

/**
 * The headings of plain text, as its writers set them: a short line that ends no sentence,
 * alone between blank lines ("Route two: hydrometallurgy"), and under it a label that opens a
 * list ("Strengths:" before "- High recovery rates…"). Each line's level (1 or 2), or 0.
 */
function plainHeadingLevels(lines: readonly string[]): number[] {
  return lines.map((raw, index) => {
    const line = raw.trim();
    // The first line is the title; a heading stands after a blank line.
    if (index === 0 || (lines[index - 1] ?? "").trim() !== "" || line === "") return 0;
    const next = (lines[index + 1] ?? "").trim();
    if (LABEL_LINE.test(line) && LIST_ITEM.test(next)) return 2;
    const short = line.length <= HEADING_CHARS && line.split(/\s+/u).length <= HEADING_WORDS;
    // "Typical figures for the chemistries of 1990:" opens what follows; a heading names it.
    return short && next === "" && HEADING_LINE.test(line) && !line.endsWith(":") && !line.includes(" | ") ? 1 : 0;
  });
}

/** Plain text as written, its title the first short line, and a section at each heading its layout shows. */
export function extractPlainText(raw: string, fallbackTitle: string): ExtractedDocument {
  const clean = tidyText(raw.replace(/^\uFEFF/, "").replace(MARK_CHARS, ""));
  const first = clean.split("\n", 1)[0]?.trim() ?? "";
  const title = first.length > 0 && first.length <= 150 ? first : fallbackTitle;
  const lines = clean.split("\n");
  const levels = plainHeadingLevels(lines);
  if (!levels.some((level) => level > 0)) return { title, text: clean, contentType: "text/plain" };
  const paths: string[][] = [];
  const open: string[] = [];
  const withMarks = lines.map((line, index) => {
    const level = levels[index] ?? 0;
    if (level === 0) return line;
    const name = line.trim().replace(/:$/u, "");
    open.length = level - 1;
    open[level - 1] = name;
    paths.push(open.filter(Boolean));
    return `${marked(paths.length - 1)}${line}`;
  });
  const outline = outlined(withMarks.join("\n"), paths, title);
  return {
    title,
    text: outline.text,
    contentType: "text/plain",
    ...(outline.sections.length > 0 ? { sections: outline.sections } : {}),
  };
}
