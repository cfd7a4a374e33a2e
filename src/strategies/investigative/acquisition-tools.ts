/**
 * The investigative loop's acquisition tools (`search`, `fetch_page`) through the Host: a
 * search spends a search-call slot and is recorded; a page is fetched, persisted and exposed
 * by acquisition before the model sees a word of it. Each search is one attempt of a question
 * in the attempt log (at most `max_attempts` per question), and a search that runs a
 * challenge's registered query executes it.
 */

import { attemptQuestion } from "../../core/investigative/attempt-log.js";
import { challengeForQuery } from "../../core/investigative/challenges.js";
import { attemptCount, isExpanded } from "../../core/investigative/frontier-queries.js";
import { LOOP_TOOL_SCHEMAS, type LoopHit, type LoopPage } from "../../core/investigative/loop-tools.js";
import { passageOf } from "../../core/synthesis/packet.js";
import { inlineText } from "../../core/synthesis/prompts.js";
import { acquire, type Candidate, search } from "../../host/acquisition.js";
import type { RunHost } from "../../host/run-host.js";
import type { SearchCallRecord, SourceRecord } from "../../ports/store.js";
import type { InvestigationTools } from "./investigation-tools.js";

/** Hits shown per search. */
export const HITS_SHOWN = 8;

/** Hit handles of the run: `h1`, `h2`, … over every search in order, so a resumed run rebuilds them. */
export class HitBook {
  readonly #hits = new Map<string, Candidate & { hit: LoopHit }>();

  /** The handles of every search the run recorded so far (a resumed run's book). */
  static of(host: RunHost): HitBook {
    const book = new HitBook();
    for (const call of host.searchCalls()) book.add(call);
    return book;
  }

  /** Gives handles to a search's shown hits and returns them. */
  add(call: SearchCallRecord): LoopHit[] {
    if (call.status !== "ok") return [];
    return call.hits.slice(0, HITS_SHOWN).map((hit) => {
      const handle = `h${this.#hits.size + 1}`;
      const shown: LoopHit = { handle, title: hit.title, location: hit.anchor, snippet: hit.snippet };
      this.#hits.set(handle, { anchor: hit.anchor, queryId: call.id, rank: hit.rank, hit: shown });
      return shown;
    });
  }

  get(handle: string): (Candidate & { hit: LoopHit }) | undefined {
    return this.#hits.get(handle);
  }
}

export interface AcquisitionReply {
  ok: boolean;
  text: string;
  hits?: LoopHit[];
  page?: LoopPage;
}

const refused = (reason: string): AcquisitionReply => ({ ok: false, text: `Refused: ${reason}` });

function argsProblem(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((issue) => `${issue.path.map(String).join(".") || "arguments"}: ${issue.message}`).join("; ");
}

function hitsText(query: string, hits: readonly LoopHit[]): string {
  if (hits.length === 0) return `The search "${inlineText(query)}" found nothing.`;
  const lines = hits.map(
    (hit) =>
      `${hit.handle}: ${inlineText(hit.title)} — ${inlineText(hit.location)}\n   ${inlineText(hit.snippet).slice(0, 300)}`,
  );
  return `Hits for "${inlineText(query)}" (read one with fetch_page {hit}):\n${lines.join("\n")}`;
}

/** A page as the loop shows it: its source id and every passage with its id. */
export function pageOf(source: SourceRecord, alreadyRead: boolean): LoopPage {
  return {
    sourceId: source.id,
    title: source.title,
    location: source.path ?? source.url ?? source.canonicalAnchor,
    passages: alreadyRead ? [] : source.chunks.map(passageOf),
    alreadyRead,
  };
}

export function pageText(page: LoopPage, note = ""): string {
  const head = `Source ${page.sourceId}: ${inlineText(page.title)} — ${inlineText(page.location)}`;
  if (page.alreadyRead) {
    return `${head}\nAlready read${note ? ` (${inlineText(note)})` : ""}: what it holds is in notes.md; it is not shown again.`;
  }
  const passages = page.passages.map((passage) => `[${passage.id}] ${passage.text}`);
  return [head, "Passages (cite their ids as passage_ids):", ...passages].join("\n");
}

/** Runs `search`: one Host search, its hits given handles, one attempt logged. */
export async function runSearch(
  host: RunHost,
  tools: InvestigationTools,
  book: HitBook,
  args: unknown,
): Promise<AcquisitionReply> {
  const parsed = LOOP_TOOL_SCHEMAS.search.safeParse(args ?? {});
  if (!parsed.success) return refused(`the arguments do not fit search: ${argsProblem(parsed.error.issues)}.`);
  const query = { kind: "text" as const, text: parsed.data.query };
  const problem = host.search.checkQuery(query);
  if (problem) return refused(`${problem}.`);
  const investigation = await tools.load();
  if (!isExpanded(investigation.frontier)) {
    return refused(
      "broad query expansion first: add the objective's first sub-questions (typically 3 to 8) with add_question " +
        '(parent_id "q_001"), or declare_atomic, before the first search.',
    );
  }
  // max_attempts per question, enforced by code; a challenge's registered query always runs.
  const questionId = attemptQuestion(investigation, parsed.data.question_id);
  const tried = attemptCount(investigation.frontier, questionId);
  if (!challengeForQuery(investigation.challenges, parsed.data.query) && tried >= investigation.config.maxAttempts) {
    return refused(
      `${questionId} has used its ${investigation.config.maxAttempts} attempts (max_attempts): resolve it with what ` +
        "you have (resolve_question), or mark it unresolvable with retry_question and an assumption.",
    );
  }
  const record = await search(host, query, "planner");
  if (!record) return refused("no searches are left in this run's budget (or its time is up).");
  const hits = book.add(record);
  const outcome = record.status === "ok" ? `${hits.length} hit(s)` : `failed: ${record.error || "unknown error"}`;
  const logged = await tools.logAttempt({
    ...(parsed.data.question_id === undefined ? {} : { questionId: parsed.data.question_id }),
    query: parsed.data.query,
    tool: "search",
    outcome,
  });
  const ran = logged?.challengeId ? `\nThis search ran challenge ${logged.challengeId}: record its verdict.` : "";
  if (record.status !== "ok") {
    return { ok: false, text: `The search "${inlineText(parsed.data.query)}" failed: ${inlineText(record.error)}.` };
  }
  return { ok: true, text: `${hitsText(parsed.data.query, hits)}${ran}`, hits };
}

/**
 * Runs `fetch_page`: acquisition of one hit, persisted before it is shown. Not an attempt of its
 * own: attempts are queries (the search that found the hit is logged); a page read before is not
 * shown again.
 */
export async function runFetch(
  host: RunHost,
  tools: InvestigationTools,
  book: HitBook,
  args: unknown,
): Promise<AcquisitionReply> {
  const parsed = LOOP_TOOL_SCHEMAS.fetch_page.safeParse(args ?? {});
  if (!parsed.success) return refused(`the arguments do not fit fetch_page: ${argsProblem(parsed.error.issues)}.`);
  const entry = book.get(parsed.data.hit);
  if (!entry) return refused(`"${inlineText(parsed.data.hit)}" is not a hit handle from a search result (h1, h2, …).`);
  const readBefore = new Set(host.sources().map((source) => source.id));
  const outcome = await acquire(host, entry);
  if (outcome.kind === "skipped") {
    return refused(
      outcome.reason === "budget" ? "no page reads are left in this run's budget." : "the run's time is up.",
    );
  }
  if (outcome.kind === "failed") {
    return { ok: false, text: `The page ${inlineText(entry.anchor)} could not be read.` };
  }
  const known = (await tools.load()).ledger.sources.find((source) => source.id === outcome.source.id);
  const alreadyRead = readBefore.has(outcome.source.id);
  const page = pageOf(outcome.source, alreadyRead);
  return { ok: true, text: pageText(page, known?.note ?? ""), page };
}
