/**
 * `assay check`: the claims of a draft, checked against the sources they cite by the judge
 * (pure). A draft is Markdown or text whose sentences cite sources — numbered references
 * ("… in 1932 [1].", with "[1]: path-or-URL" or "1. path-or-URL" under a References heading)
 * or links ("[the register](sources/register.md)") — or JSON Lines of
 * `{"id", "claim", "sources": [{"text"} | {"path"} | {"url"}]}`. Each claim gets one verdict:
 * `contradicted` when a source cited contradicts it (whatever else supports it), `supported`
 * when one states it, `partial` when one states part of it or only hedges it, `not-found`
 * otherwise, with the sentences that decide, quoted.
 */
import { z } from "zod";
import { err, ok, type Result } from "../result.js";
import { splitSentences } from "../sentences.js";
import { escapeRegExp, readerLine } from "../text.js";
import type { Judge, Judgement } from "./judge.js";

export type CheckVerdict = "supported" | "contradicted" | "partial" | "not-found";

/** Where a claim's source is: given as text, or a path or URL to read. */
export type SourceRef = { kind: "text"; text: string } | { kind: "path"; path: string } | { kind: "url"; url: string };

export interface DraftClaim {
  id: string;
  claim: string;
  sources: readonly SourceRef[];
}

/** A source as read: what it is called and its passages; or why it could not be read. */
export type ReadSource =
  | { ok: true; label: string; title: string; passages: readonly { text: string; heading?: string }[] }
  | { ok: false; label: string; error: string };

export interface CheckedClaim {
  id: string;
  claim: string;
  verdict: CheckVerdict;
  /** Why, in reader words. */
  reason: string;
  /** The sentences that decide, by source. */
  quotes: readonly { source: string; text: string; stance: "supports" | "contradicts" | "partial" }[];
  /** Sources that could not be read, with why. */
  unread: readonly { source: string; error: string }[];
}

const REFERENCE_LINE = /^\s*(?:\[(\d{1,4})\]:?|(\d{1,4})[.)])\s+(?:<([^>]+)>|(\S+))/;
const CITATION = /\[(\d{1,4}(?:\s*[,;–-]\s*\d{1,4})*)\](?!\s*[:(])/g;
const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/g;
const REFERENCES_HEADING = /^#{1,6}\s*(?:references|sources|bibliography|works cited|notes)\s*$/i;

const sourceOf = (target: string): SourceRef =>
  /^https?:\/\//i.test(target) ? { kind: "url", url: target } : { kind: "path", path: target.replace(/^<|>$/g, "") };

/** The numbers a citation mark names: "[1]", "[1, 3]", "[2–4]". */
function citedNumbers(mark: string): number[] {
  const numbers: number[] = [];
  for (const part of mark.split(/\s*[,;]\s*/)) {
    const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(part);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      for (let n = from; n <= to && n - from < 50; n++) numbers.push(n);
    } else if (/^\d+$/.test(part)) numbers.push(Number(part));
  }
  return numbers;
}

/**
 * The claims of a Markdown or text draft: each sentence that cites a source, with the sources
 * it cites (its citation marks and links removed from its text), in order. Reference lines and
 * what follows a References heading are the reference list, not claims. Never throws.
 */
export function parseDraft(text: string): { claims: DraftClaim[]; problems: string[] } {
  const lines = text.split(/\r?\n/);
  const references = new Map<number, string>();
  const body: string[] = [];
  let inReferences = false;
  for (const line of lines) {
    if (REFERENCES_HEADING.test(line.trim())) {
      inReferences = true;
      continue;
    }
    const reference = REFERENCE_LINE.exec(line);
    const number = reference?.[1] ?? reference?.[2];
    const target = reference?.[3] ?? reference?.[4];
    if (reference && number && target && (inReferences || reference[1] !== undefined) && /[./:]/.test(target)) {
      references.set(Number(number), target);
      continue;
    }
    if (/^#{1,6}\s/.test(line)) inReferences = false;
    body.push(inReferences ? "" : line);
  }
  const claims: DraftClaim[] = [];
  const problems: string[] = [];
  for (const sentence of splitSentences(body.join("\n"))) {
    const sources: SourceRef[] = [];
    let clean = sentence.text;
    for (const match of sentence.text.matchAll(LINK)) {
      sources.push(sourceOf(match[2] ?? ""));
      // A link in parentheses is a citation ("… green ([register](a.md))"); one in the text keeps its words.
      const cited = new RegExp(`\\(\\s*${escapeRegExp(match[0])}\\s*\\)`);
      clean = cited.test(clean) ? clean.replace(cited, "") : clean.replace(match[0], match[1] ?? "");
    }
    for (const match of sentence.text.matchAll(CITATION)) {
      for (const number of citedNumbers(match[1] ?? "")) {
        const target = references.get(number);
        if (target) sources.push(sourceOf(target));
        else
          problems.push(
            `“${readerLine(sentence.text, 120)}” cites [${number}], which the reference list does not give`,
          );
      }
      clean = clean.replace(match[0], "");
    }
    if (sources.length === 0) continue;
    const claim = clean
      .replace(/\s+([.,;:!?])/g, "$1")
      .replace(/\s{2,}/g, " ")
      .trim();
    claims.push({ id: `claim-${claims.length + 1}`, claim, sources: dedupe(sources) });
  }
  return { claims, problems };
}

function dedupe(sources: readonly SourceRef[]): SourceRef[] {
  const seen = new Set<string>();
  return sources.filter((source) => {
    const key = JSON.stringify(source);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const lineSchema = z.object({
  id: z.union([z.string().min(1).max(200), z.number().int()]),
  claim: z.string().trim().min(1).max(4_000),
  sources: z
    .array(
      z.union([
        z.object({ text: z.string().min(1).max(2_000_000) }).strict(),
        z.object({ path: z.string().min(1).max(4_096) }).strict(),
        z.object({ url: z.string().url().max(4_096) }).strict(),
      ]),
    )
    .min(1)
    .max(50),
});

/** The claims of a JSON Lines file, one per line; a line that is not one is reported by its number, in words. */
export function parseClaimLines(text: string): { claims: DraftClaim[]; problems: string[] } {
  const claims: DraftClaim[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const parsed = parseLine(line);
    if (!parsed.ok) {
      problems.push(`line ${index + 1}: ${parsed.error}`);
      return;
    }
    claims.push(parsed.value);
  });
  return { claims, problems };
}

function parseLine(line: string): Result<DraftClaim, string> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return err("not a JSON object");
  }
  const parsed = lineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the line";
    return err(
      `${where}: ${issue?.message ?? "not a claim"} (expected {"id", "claim", "sources": [{"text"} | {"path"} | {"url"}]})`,
    );
  }
  const { id, claim, sources } = parsed.data;
  return ok({
    id: String(id),
    claim,
    sources: sources.map(
      (source): SourceRef =>
        "text" in source
          ? { kind: "text", text: source.text }
          : "path" in source
            ? { kind: "path", path: source.path }
            : { kind: "url", url: source.url },
    ),
  });
}

/** The passages of a text given inline: its paragraphs, each at most a few sentences. */
export function passagesOf(text: string): { text: string }[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  return paragraphs.flatMap((paragraph) => {
    const sentences = splitSentences(paragraph);
    const out: { text: string }[] = [];
    for (let i = 0; i < sentences.length; i += 6) {
      const slice = sentences.slice(i, i + 6);
      const from = slice[0]?.start ?? 0;
      const to = slice.at(-1)?.end ?? paragraph.length;
      out.push({ text: paragraph.slice(from, to) });
    }
    return out;
  });
}

const STANCE: Record<Judgement["verdict"], "supports" | "contradicts" | "partial" | undefined> = {
  supports: "supports",
  contradicts: "contradicts",
  partial: "partial",
  unrelated: undefined,
};

/**
 * The verdict of one claim over the sources it cites, as read (pure): each source judged whole,
 * in its context (its title), so that the parts of a claim may be stated in different paragraphs.
 */
export function checkClaim(claim: DraftClaim, sources: readonly ReadSource[], judge: Judge): CheckedClaim {
  const quotes: { source: string; text: string; stance: "supports" | "contradicts" | "partial"; reason: string }[] = [];
  const unread: { source: string; error: string }[] = [];
  for (const source of sources) {
    if (!source.ok) {
      unread.push({ source: source.label, error: source.error });
      continue;
    }
    // The source as one passage: the claim's propositions may be stated in different paragraphs.
    const judgement = judge.judge(claim.claim, {
      text: source.passages.map((passage) => passage.text).join("\n\n"),
      title: source.title,
    });
    const stance = STANCE[judgement.verdict];
    if (!stance) continue;
    const text = judgement.passage.map((span) => span.text).join(" ");
    quotes.push({ source: source.label, text, stance, reason: judgement.reason });
  }
  const against = quotes.filter((quote) => quote.stance === "contradicts");
  const stating = quotes.filter((quote) => quote.stance === "supports");
  const partly = quotes.filter((quote) => quote.stance === "partial");
  const verdict: CheckVerdict =
    against.length > 0
      ? "contradicted"
      : stating.length > 0
        ? "supported"
        : partly.length > 0
          ? "partial"
          : "not-found";
  const deciding = verdict === "contradicted" ? against : verdict === "supported" ? stating : partly;
  const reason =
    verdict === "not-found"
      ? unread.length > 0 && unread.length === sources.length
        ? `No source it cites could be read (${unread.map((entry) => `${entry.source}: ${entry.error}`).join("; ")}).`
        : "No source it cites states it or says otherwise."
      : (deciding[0]?.reason ?? "");
  return {
    id: claim.id,
    claim: claim.claim,
    verdict,
    reason,
    quotes: deciding.map(({ source, text, stance }) => ({ source, text, stance })),
    unread,
  };
}
