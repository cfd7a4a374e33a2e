/**
 * The notes.md grammar (seed 000 "Working state: notes.md"): fixed sections, one record per
 * line, rendered from the ledger and the frontier and read back by a parser that never throws.
 * Pure: no I/O, no clock, no randomness.
 *
 * Line grammar. Fields of a record are separated by TWO spaces; model-written text is made
 * single-line by `singleLine` (newlines and control characters become spaces, runs of spaces
 * collapse to one, ends trimmed), so it never contains two spaces in a row and the separators
 * stay unambiguous without escaping anything. Text may hold `src:`, `|`, brackets or quotes:
 * fields are read by position, never by searching for a keyword.
 *
 * ```
 * # Notes: <objective>
 * ## Verified
 * - [c_007] VERIFIED  <text>  src: s_003, s_005
 * ## Unverified
 * - [c_009] UNVERIFIED  <text>  src: s_004  | check: <what would verify it>
 * ## Contradictions
 * - c_007 vs c_011 -> q_044
 * ## Datapoints
 * - [d_002] <value>  <unit>  | <context>  | s_001
 * ## Sources
 * - [s_003] <url or corpus path>  "<title>"  — <access note>  (<domain> | local)
 * ## Assumptions & gaps
 * - q_031 unresolvable: <assumption>
 * ## Scratch
 * <free text to the end of the file, kept verbatim>
 * ```
 * An empty source list is `-`; an empty check or note leaves its field out; an empty value,
 * context or assumption leaves the label alone (`| `→`|`), so no field has an edge space.
 */
import type { Result } from "../result.js";
import { err, ok } from "../result.js";
import { contradictionSettled } from "./ledger.js";
import type { Frontier, InvestigationConfig, Ledger } from "./types.js";

export const NOTES_SECTIONS = [
  "Verified",
  "Unverified",
  "Contradictions",
  "Datapoints",
  "Sources",
  "Assumptions & gaps",
  "Scratch",
] as const;
export type NotesSection = (typeof NOTES_SECTIONS)[number];

/** A Verified or Unverified record. `check` is '' in Verified. */
export interface NotesClaim {
  id: string;
  text: string;
  /** The sources that support it, in ledger order. */
  sourceIds: readonly string[];
  check: string;
}

export interface NotesContradiction {
  claimId: string;
  otherClaimId: string;
  /** The question spawned to resolve it; '' until spawned. */
  questionId: string;
}

export interface NotesDatapoint {
  id: string;
  value: string;
  unit: string;
  text: string;
  sourceIds: readonly string[];
}

export interface NotesSource {
  id: string;
  location: string;
  title: string;
  note: string;
  /** The registrable domain; null for a corpus document (shown as `(local)`). */
  domain: string | null;
}

export interface NotesGap {
  questionId: string;
  assumption: string;
}

/** The records of notes.md, section by section: what `renderNotes` writes and `parseNotes` reads. */
export interface NotesDocument {
  objective: string;
  verified: readonly NotesClaim[];
  unverified: readonly NotesClaim[];
  contradictions: readonly NotesContradiction[];
  datapoints: readonly NotesDatapoint[];
  sources: readonly NotesSource[];
  gaps: readonly NotesGap[];
  /** Free text, verbatim (not parsed). */
  scratch: string;
}

/** A line the parser could not read; `line` is 1-based. */
export interface NotesProblem {
  line: number;
  message: string;
  text: string;
}

export interface ParsedNotes extends NotesDocument {
  problems: readonly NotesProblem[];
}

export interface NotesInput {
  objective: string;
  ledger: Ledger;
  frontier: Pick<Frontier, "questions">;
  scratch: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point.
const BREAKING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;

/** Model-written text as one line: control characters and line breaks become spaces, spaces collapse. Pure. */
export function singleLine(text: string): string {
  return text.replace(BREAKING, " ").replace(/ {2,}/g, " ").trim();
}

const CORPUS_DOMAIN = "corpus:";
const LOCAL = "local";
const SEPARATOR = "  ";

/** The records the notes show for this ledger and frontier, single-lined. Pure and deterministic. */
export function notesDocument(input: NotesInput): NotesDocument {
  const { ledger } = input;
  const supporting = (claimId: string): string[] => [
    ...new Set(
      ledger.claimSources
        .filter((link) => link.claimId === claimId && link.stance === "supports")
        .map((link) => link.sourceId),
    ),
  ];
  const claims = (status: "VERIFIED" | "UNVERIFIED"): NotesClaim[] =>
    ledger.claims
      .filter((claim) => claim.kind === "claim" && claim.status === status)
      .map((claim) => ({
        id: claim.id,
        text: singleLine(claim.text),
        sourceIds: supporting(claim.id),
        check: status === "UNVERIFIED" ? singleLine(claim.check) : "",
      }));
  return {
    objective: singleLine(input.objective),
    verified: claims("VERIFIED"),
    unverified: claims("UNVERIFIED"),
    contradictions: ledger.contradictions
      .filter((contradiction) => !contradictionSettled(contradiction, ledger.claims, input.frontier.questions))
      .map(({ claimId, otherClaimId, questionId }) => ({ claimId, otherClaimId, questionId })),
    // Refuted and retracted datapoints stay in the DB history only, like claims.
    datapoints: ledger.claims
      .filter((claim) => claim.kind === "datapoint" && (claim.status === "VERIFIED" || claim.status === "UNVERIFIED"))
      .map((claim) => ({
        id: claim.id,
        value: singleLine(claim.value),
        unit: singleLine(claim.unit),
        text: singleLine(claim.text),
        sourceIds: supporting(claim.id),
      })),
    sources: ledger.sources.map((source) => ({
      id: source.id,
      location: singleLine(source.location),
      title: singleLine(source.title),
      note: singleLine(source.note),
      domain: source.domain.startsWith(CORPUS_DOMAIN) ? null : singleLine(source.domain),
    })),
    gaps: input.frontier.questions
      .filter((question) => question.status === "unresolvable")
      .map((question) => ({ questionId: question.id, assumption: singleLine(question.answer) })),
    scratch: input.scratch,
  };
}

/** `label value`, or the bare label when the value is empty (no trailing space). */
const labelled = (label: string, value: string): string => (value === "" ? label : `${label} ${value}`);
const idList = (ids: readonly string[]): string => (ids.length === 0 ? "-" : ids.join(", "));

function claimLine(claim: NotesClaim, status: "VERIFIED" | "UNVERIFIED"): string {
  const fields = [`- [${claim.id}] ${status}`, claim.text, `src: ${idList(claim.sourceIds)}`];
  if (claim.check !== "") fields.push(`| check: ${claim.check}`);
  return fields.join(SEPARATOR);
}

const RECORD_LINES: { [K in Exclude<NotesSection, "Scratch">]: (document: NotesDocument) => string[] } = {
  Verified: (document) => document.verified.map((claim) => claimLine(claim, "VERIFIED")),
  Unverified: (document) => document.unverified.map((claim) => claimLine(claim, "UNVERIFIED")),
  Contradictions: (document) =>
    document.contradictions.map(
      (entry) =>
        `- ${entry.claimId} vs ${entry.otherClaimId}${entry.questionId === "" ? "" : ` -> ${entry.questionId}`}`,
    ),
  Datapoints: (document) =>
    document.datapoints.map((point) =>
      [
        labelled(`- [${point.id}]`, point.value),
        point.unit,
        labelled("|", point.text),
        `| ${idList(point.sourceIds)}`,
      ].join(SEPARATOR),
    ),
  Sources: (document) =>
    document.sources.map((source) =>
      [
        labelled(`- [${source.id}]`, source.location),
        `"${source.title}"`,
        ...(source.note === "" ? [] : [`— ${source.note}`]),
        `(${source.domain ?? LOCAL})`,
      ].join(SEPARATOR),
    ),
  "Assumptions & gaps": (document) =>
    document.gaps.map((gap) => labelled(`- ${gap.questionId} unresolvable:`, gap.assumption)),
};

/** notes.md text for a document. The Scratch section is last and verbatim. Pure. */
export function formatNotes(document: NotesDocument): string {
  const lines = [labelled("# Notes:", singleLine(document.objective)), ""];
  for (const section of NOTES_SECTIONS) {
    if (section === "Scratch") continue;
    lines.push(`## ${section}`, ...RECORD_LINES[section](document), "");
  }
  lines.push("## Scratch");
  return `${lines.join("\n")}\n${document.scratch === "" ? "" : `${document.scratch}\n`}`;
}

/** notes.md for the current ledger, frontier and scratch. Pure and deterministic. */
export function renderNotes(input: NotesInput): string {
  return formatNotes(notesDocument(input));
}

const ID = "[a-z]+_[A-Za-z0-9]+";
const ID_LIST = new RegExp(`^(?:-|${ID}(?:, ${ID})*)$`);
const CLAIM_HEAD = new RegExp(`^- \\[(${ID})\\] (VERIFIED|UNVERIFIED)$`);
const RECORD_HEAD = new RegExp(`^- \\[(${ID})\\](?: (.*))?$`);
const CONTRADICTION = new RegExp(`^- (${ID}) vs (${ID})(?: -> (${ID}))?$`);
const GAP = new RegExp(`^- (${ID}) unresolvable:(?: (.*))?$`);

const parseIds = (field: string): string[] => (field === "-" ? [] : field.split(", "));

/** A field `label value` or a bare `label` (the value ''); undefined when the field has another label. */
function unlabel(field: string | undefined, label: string): string | undefined {
  if (field === label) return "";
  return field?.startsWith(`${label} `) ? field.slice(label.length + 1) : undefined;
}

function parseClaim(line: string, status: "VERIFIED" | "UNVERIFIED"): NotesClaim | string {
  const [head = "", text = "", sources, check, ...extra] = line.split(SEPARATOR);
  const match = CLAIM_HEAD.exec(head);
  if (!match?.[1]) return "not a claim record: - [c_…] STATUS  text  src: s_…";
  if (match[2] !== status)
    return `a ${match[2]} claim in the ${status === "VERIFIED" ? "Verified" : "Unverified"} section`;
  const ids = unlabel(sources, "src:");
  if (ids === undefined || !ID_LIST.test(ids)) return "the claim has no `src:` list of source ids";
  // An empty check is never written, so a bare `| check:` is malformed too.
  const checked = check === undefined ? "" : unlabel(check, "| check:");
  if (checked === undefined || (check !== undefined && checked === "") || extra.length > 0) {
    return "unexpected text after the source list";
  }
  if (status === "VERIFIED" && checked !== "") return "a Verified claim has no `| check:`";
  return { id: match[1], text, sourceIds: parseIds(ids), check: checked };
}

function parseDatapoint(line: string): NotesDatapoint | string {
  const [head = "", unit, context, sources, ...extra] = line.split(SEPARATOR);
  const match = RECORD_HEAD.exec(head);
  const text = unlabel(context, "|");
  const ids = unlabel(sources, "|");
  if (!match?.[1] || unit === undefined || text === undefined || ids === undefined || extra.length > 0) {
    return "not a datapoint record: - [d_…] value  unit  | context  | s_…";
  }
  if (!ID_LIST.test(ids)) return "the datapoint's last field is not a list of source ids";
  return { id: match[1], value: match[2] ?? "", unit, text, sourceIds: parseIds(ids) };
}

function parseSource(line: string): NotesSource | string {
  const fields = line.split(SEPARATOR);
  const [head = "", title = ""] = fields;
  const domain = fields.at(-1) ?? "";
  const match = RECORD_HEAD.exec(head);
  const note = fields.length === 4 ? unlabel(fields[2], "—") : "";
  const quoted = title.length >= 2 && title.startsWith('"') && title.endsWith('"');
  const bracketed = domain.length >= 2 && domain.startsWith("(") && domain.endsWith(")");
  if (!match?.[1] || fields.length < 3 || fields.length > 4 || !quoted || !bracketed) {
    return 'not a source record: - [s_…] location  "title"  — note  (domain)';
  }
  // An empty note is never written: a bare `—` is malformed.
  if (note === undefined || (fields.length === 4 && note === "")) return "the access note field is not `— note`";
  const site = domain.slice(1, -1);
  return {
    id: match[1],
    location: match[2] ?? "",
    title: title.slice(1, -1),
    note,
    domain: site === LOCAL ? null : site,
  };
}

interface Collected {
  verified: NotesClaim[];
  unverified: NotesClaim[];
  contradictions: NotesContradiction[];
  datapoints: NotesDatapoint[];
  sources: NotesSource[];
  gaps: NotesGap[];
}

function parseRecord(section: Exclude<NotesSection, "Scratch">, line: string, into: Collected): string | undefined {
  switch (section) {
    case "Verified":
    case "Unverified": {
      const claim = parseClaim(line, section === "Verified" ? "VERIFIED" : "UNVERIFIED");
      if (typeof claim === "string") return claim;
      into[section === "Verified" ? "verified" : "unverified"].push(claim);
      return undefined;
    }
    case "Contradictions": {
      const match = CONTRADICTION.exec(line);
      if (!match?.[1] || !match[2]) return "not a contradiction record: - c_… vs c_… -> q_…";
      into.contradictions.push({ claimId: match[1], otherClaimId: match[2], questionId: match[3] ?? "" });
      return undefined;
    }
    case "Datapoints": {
      const point = parseDatapoint(line);
      if (typeof point === "string") return point;
      into.datapoints.push(point);
      return undefined;
    }
    case "Sources": {
      const source = parseSource(line);
      if (typeof source === "string") return source;
      into.sources.push(source);
      return undefined;
    }
    case "Assumptions & gaps": {
      const match = GAP.exec(line);
      if (!match?.[1]) return "not a gap record: - q_… unresolvable: assumption";
      into.gaps.push({ questionId: match[1], assumption: match[2] ?? "" });
      return undefined;
    }
  }
}

const isSection = (name: string): name is NotesSection => (NOTES_SECTIONS as readonly string[]).includes(name);

/**
 * Reads notes.md into its records. Never throws: unknown and malformed lines are reported in
 * `problems` with their line numbers and left out. Blank lines are ignored; everything after
 * the `## Scratch` heading is the scratch text, verbatim. Pure.
 */
export function parseNotes(text: string): ParsedNotes {
  const into: Collected = { verified: [], unverified: [], contradictions: [], datapoints: [], sources: [], gaps: [] };
  const problems: NotesProblem[] = [];
  const problem = (line: number, message: string, content: string) =>
    problems.push({ line, message, text: content.slice(0, 200) });
  let objective: string | undefined;
  let section: NotesSection | "unknown" | undefined;
  let scratch = "";
  let offset = 0;
  let number = 0;
  while (offset < text.length) {
    const end = text.indexOf("\n", offset);
    const next = end === -1 ? text.length : end + 1;
    const line = text.slice(offset, end === -1 ? text.length : end).replace(/\r$/, "");
    number++;
    offset = next;
    if (line.trim() === "") continue;
    const title = objective === undefined && section === undefined ? unlabel(line, "# Notes:") : undefined;
    if (title !== undefined) {
      objective = title;
    } else if (line.startsWith("## ")) {
      const name = line.slice(3);
      section = isSection(name) ? name : "unknown";
      if (section === "unknown") problem(number, "unknown section", line);
      if (section === "Scratch") {
        scratch = text.slice(next).replace(/\n$/, "");
        break;
      }
    } else if (section === undefined || section === "unknown" || section === "Scratch") {
      problem(number, section === undefined ? "a line before the first section" : "a line in an unknown section", line);
    } else {
      const message = parseRecord(section, line, into);
      if (message !== undefined) problem(number, message, line);
    }
  }
  if (objective === undefined) problem(1, "missing the title line `# Notes: <objective>`", "");
  return { objective: objective ?? "", ...into, scratch, problems };
}

/** Approximate size in tokens: ceil(characters / 4), counting code points. Not a tokenizer. Pure. */
export function notesTokens(text: string): number {
  let characters = 0;
  for (const _ of text) characters++;
  return Math.ceil(characters / 4);
}

/** Whether the notes exceed `notes_max_tokens` (by `notesTokens`), which forces a consolidation turn. */
export function overBudget(text: string, config: Pick<InvestigationConfig, "notesMaxTokens">): boolean {
  return notesTokens(text) > config.notesMaxTokens;
}

/** Matches the names `notesFileName` makes, and nothing with a path separator. */
export const NOTES_FILE_PATTERN = /^notes_[A-Za-z0-9._-]{0,64}_(?:0|[1-9][0-9]*)_[0-9a-f]{32}\.md$/;
const NOTES_ID = /^[0-9a-f]{32}$/;

/**
 * `notes_<user>_<run>_<notes_id>.md`: the user id with every character outside
 * `A-Za-z0-9._-` replaced by `_` and cut to 64 characters (for readability only), the run id,
 * and the run's random 128-bit notes id as 32 lowercase hex characters. Pure.
 */
export function notesFileName(userId: string, runId: number, notesId: string): Result<string, string> {
  if (!Number.isSafeInteger(runId) || runId < 0) return err(`the run id must be a whole number (got ${runId})`);
  if (!NOTES_ID.test(notesId)) return err("the notes id must be 32 lowercase hex characters");
  const user = Array.from(userId, (character) => (/^[A-Za-z0-9._-]$/.test(character) ? character : "_"))
    .join("")
    .slice(0, 64);
  return ok(`notes_${user}_${runId}_${notesId}.md`);
}
