/**
 * Documentation metadata lines (pure): the short lines of a reference page that say when the thing
 * its section is about was added, changed, deprecated or removed ("New in version 3.5.",
 * "Deprecated since version 3.4: use …", "Since v2.1", "Added in: v0.1.90"), its default
 * ("Default: 30"), type or availability. Such a line says nothing without its section's heading:
 * a passage keeps it (chunking), and the offline engine quotes it after that heading. English
 * conventions of documentation generators (Sphinx, Javadoc, MDN, Node.js), not of one site.
 */

/** A version as documentation writes it: "version 3.5", "v0.1.90", "3.4.4", "release 12". */
const VERSION = String.raw`(?:(?:version|release)\s+v?\d+(?:\.\d+)*|v\d+(?:\.\d+)*|\d+(?:\.\d+)+)`;
const METADATA_LINE = new RegExp(
  String.raw`^(?:(?:new|added|changed|deprecated|removed|introduced|updated|available)\s+(?:in|since|as of)\s*:?\s*${VERSION}|since\s*:?\s*${VERSION}|(?:default(?: value)?|type|availability|version added|since)\s*:|defaults to\b)`,
  "i",
);
const MAX_METADATA_CHARS = 200;

/** Whether a text opens with a metadata line, however long the note it starts ("Deprecated since version 3.9: …"). */
export const opensWithMetadata = (text: string): boolean => METADATA_LINE.test(text.trim());

export const isMetadataLine = (text: string): boolean =>
  text.length <= MAX_METADATA_CHARS && !text.includes("\n\n") && opensWithMetadata(text);

/**
 * What a metadata line says happened, in the words a question would use: "New in version 3.5"
 * and "Since 3.5" say the thing was added (introduced) then. Empty for any other line.
 */
const MEANINGS: readonly [RegExp, string][] = [
  [/^(?:new|added|introduced|available)\b|^since\b|^version added\b/i, "added introduced new"],
  [/^deprecated\b/i, "deprecated"],
  [/^removed\b/i, "removed"],
  [/^(?:changed|updated)\b/i, "changed"],
  [/^defaults?\b/i, "default"],
];

export function metadataMeaning(text: string): string {
  if (!isMetadataLine(text)) return "";
  return MEANINGS.find(([pattern]) => pattern.test(text.trim()))?.[1] ?? "";
}
