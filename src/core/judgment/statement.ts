/**
 * Whether a text states anything (pure): the one rule behind what the judge will check and what
 * extraction will quote. A record line ("Year: 2024; Price: 115") does; a sentence that ends
 * with a full stop does (whatever a tagger makes of its verb); a question does not; a line with
 * no full stop does only with a verb and not worded as a question ("What a cathode material has
 * to do", "Fast charging: what limits it" and "Lithium cobalt oxide (LCO)" are headings).
 */

import { HEADING_SEPARATOR } from "../chunking.js";
import { isMetadataLine } from "../doc-metadata.js";
import { hasVerb, normalizePhrase } from "../lexicon.js";
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

/** A sentence about the document itself, a table of contents in prose ("This briefing describes the main routes…", "These notes accompany a lecture…"). */
const ABOUT_ITSELF =
  /^(?:this|these|the present) (?:article|briefing|note|notes|report|paper|chapter|section|document|page|memo|guide|post|review|overview|primer|handbook|tutorial|slides|lecture notes) (?:describes?|introduces?|explains?|covers?|looks? at|discuss(?:es)?|summari[sz]es?|outlines?|reviews?|sets? out|presents?|examines?|explores?|accompan(?:y|ies))\b/iu;

/** A list item that is a name and a relative clause, with no predicate of its own ("Yoshio Nishi, who led …"). */
const RELATIVE_FRAGMENT = /^[^,]{1,80}, (?:who|whose|which|where)\b/u;

/**
 * Whether a text is content a finding may quote (decided once, for every format and strategy):
 * a statement (`isStatement`, the judge's rule too) or a metadata line, and not a running header
 * or footer, a page number, a list fragment with no predicate, a sentence about the document
 * itself ("This article introduces…"), or a heading written again as a
 * line of its passage: its document's title or a heading it stands under (`headings`, the title
 * and the section "A › B" of the passage), which names the text, it says nothing of its own.
 */
export function isContent(text: string, listItem: boolean, headings: readonly string[] = []): boolean {
  const trimmed = text.trim();
  if (trimmed.endsWith("?")) return false;
  if (RUNNING_LINE.test(trimmed) || ABOUT_ITSELF.test(trimmed)) return false;
  if (headings.length > 0) {
    const line = normalizePhrase(trimmed);
    const named = headings.flatMap((heading) => heading.split(HEADING_SEPARATOR));
    if (named.some((heading) => normalizePhrase(heading) === line)) return false;
  }
  if (listItem && RELATIVE_FRAGMENT.test(trimmed) && !hasVerb(trimmed.slice(0, trimmed.indexOf(",")))) return false;
  return isMetadataLine(trimmed) || isStatement(trimmed, hasVerb);
}
