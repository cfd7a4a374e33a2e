/**
 * Whether a text states anything (pure): the one rule behind what the judge will check and what
 * extraction will quote. A record line ("Year: 2024; Price: 115") does; a sentence that ends
 * with a full stop does (whatever a tagger makes of its verb); a question does not; a line with
 * no full stop does only with a verb and not worded as a question ("What a cathode material has
 * to do", "Fast charging: what limits it" and "Lithium cobalt oxide (LCO)" are headings).
 */
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
