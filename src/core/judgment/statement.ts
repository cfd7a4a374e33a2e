/**
 * Whether a text states anything (pure): the one rule behind what the judge will check and what
 * extraction will quote. A record line ("Year: 2024; Price: 115") does; a sentence that ends
 * with a full stop does (whatever a tagger makes of its verb); a question does not; a line with
 * no full stop does only with a verb and not worded as a question ("What a cathode material has
 * to do", "Fast charging: what limits it" and "Lithium cobalt oxide (LCO)" are headings).
 */
import { isMetadataLine } from "../doc-metadata.js";
import { hasVerb } from "../lexicon.js";
import { isRecordLine } from "../records.js";

/** What opens a question, or a heading worded as one. */
const QUESTION_OPENING = /^(?:what|why|how|when|where|which|who|whom|whose)\b/iu;

/** A sentence's closing punctuation, a closing quote or bracket after it allowed. */
const CLOSED = /[.!]["”’)]?$/u;

export function isStatement(text: string, hasVerb: (text: string) => boolean): boolean {
  const trimmed = text.trim();
  if (isRecordLine(trimmed)) return true;
  if (trimmed.endsWith("?")) return false;
  if (CLOSED.test(trimmed)) return true;
  if (trimmed.split(/:\s+/u).some((part) => QUESTION_OPENING.test(part))) return false;
  return hasVerb(trimmed);
}

/** A running header or footer, a page number, a licence line: text of the page, not of the document. */
const RUNNING_LINE =
  /\b(?:page \d+ of \d+|p\. ?\d+ ?\/ ?\d+)\b|\(cc[ -]by(?:[ -][a-z]{2}){0,3} \d\.\d\)|^\s*(?:page\s*)?\d+\s*$/iu;

/** A list item that is a name and a relative clause, with no predicate of its own ("Yoshio Nishi, who led …"). */
const RELATIVE_FRAGMENT = /^[^,]{1,80}, (?:who|whose|which|where)\b/u;

/**
 * Whether a text is content a finding may quote (decided once, for every format and strategy):
 * a statement (`isStatement`, the judge's rule too) or a metadata line, and not a running header
 * or footer, a page number or a list fragment with no predicate.
 */
export function isContent(text: string, listItem: boolean): boolean {
  const trimmed = text.trim();
  if (trimmed.endsWith("?")) return false;
  if (RUNNING_LINE.test(trimmed)) return false;
  if (listItem && RELATIVE_FRAGMENT.test(trimmed) && !hasVerb(trimmed.slice(0, trimmed.indexOf(",")))) return false;
  return isMetadataLine(trimmed) || isStatement(trimmed, hasVerb);
}
