/**
 * Sections named by their headings, for extractors of documents with headings (HTML, Markdown):
 * while an extractor builds its text it puts a mark where each section starts (`marked`, before
 * the heading's first character) and keeps the section's path of headings; once the text is tidy,
 * `outlined` takes the marks out and returns the sections at their offsets in the final text.
 */
import { HEADING_SEPARATOR, type Section } from "../../core/chunking.js";

/** Text with the sections its headings start. */
export interface OutlinedText {
  text: string;
  sections: Section[];
}

/** A section mark (private-use characters, taken out of the document's own text first). */
const MARK = /\uE000(\d+)\uE001/g;
export const MARK_CHARS = /[\uE000\uE001]/g;

/** The mark of the section whose path is `paths[index]`. */
export const marked = (index: number): string => `\uE000${index}\uE001`;

/** How long one heading of a location is kept, and the whole location. */
const LOCATION_PART_CHARS = 60;
const LOCATION_CHARS = 160;

/**
 * The heading of terms that head one description together (a group of constants): every name,
 * or, where they do not fit one heading, the prefix they share as the documentation writes such a
 * group ("mmap.MADV_*"), so that each of them still stands in the location. A prefix that does not
 * reach past its module's dot (or under three characters of the name) is no name: the list is cut.
 */
export function termsHeading(names: readonly string[]): string {
  const all = names.join(", ");
  if (all.length <= LOCATION_PART_CHARS || names.length < 2) return all;
  let shared = names[0] ?? "";
  for (const name of names) while (!name.startsWith(shared)) shared = shared.slice(0, -1);
  // The shared prefix ends where a name's part does ("MADV_", not "MADV_N").
  const prefix = shared.replace(/[^._]+$/u, "");
  const own = prefix.slice(prefix.lastIndexOf(".") + 1);
  return own.length >= 3 ? `${prefix}*` : all;
}

const cut = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(" ", max - 1);
  return `${text.slice(0, space > max / 2 ? space : max - 1)}…`;
};

/**
 * Where a section stands, as its headings name it ("Basic Usage › json.dumps(obj, *, …)"): the
 * document's own title, which every passage shares, is left out; long headings are cut, and a
 * long path keeps its innermost headings.
 */
function headingLocation(path: readonly string[], title: string): string {
  const squash = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const parts = (squash(path[0] ?? "") === squash(title) ? path.slice(1) : path).map((part) =>
    cut(part, LOCATION_PART_CHARS),
  );
  let location = parts.join(HEADING_SEPARATOR);
  while (location.length > LOCATION_CHARS && parts.length > 1) {
    parts.shift();
    location = `…${HEADING_SEPARATOR}${parts.join(HEADING_SEPARATOR)}`;
  }
  return cut(location, LOCATION_CHARS);
}

/**
 * `tidy` without its marks, and the sections they stood for: a section starts where its mark
 * stood, named by its path (`paths`, by mark); of two at one offset the later one counts, a
 * section named as the one before it continues it, and text before any named section has none.
 */
export function outlined(tidy: string, paths: readonly (readonly string[])[], title: string): OutlinedText {
  const sections: Section[] = [];
  let text = "";
  let last = 0;
  for (const mark of tidy.matchAll(MARK)) {
    text += tidy.slice(last, mark.index);
    last = mark.index + mark[0].length;
    const location = headingLocation(paths[Number(mark[1])] ?? [], title);
    if (sections.at(-1)?.start === text.length) sections.pop();
    // A section without a name only ends the named one before it (the text after a list of entries).
    if (location === "" && sections.length === 0) continue;
    if (sections.at(-1)?.location !== location) sections.push({ start: text.length, location });
  }
  text += tidy.slice(last);
  return { text, sections };
}
