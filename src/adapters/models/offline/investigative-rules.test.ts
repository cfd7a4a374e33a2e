import { describe, expect, it } from "vitest";
import { chunkContent } from "../../../core/chunking.js";
import { chunkId, sourceId } from "../../../core/ids.js";
import { logAttempt } from "../../../core/investigative/attempt-log.js";
import { normalizeQuery, queryTerms } from "../../../core/investigative/challenges.js";
import { finalizationGate, parseFinalReport } from "../../../core/investigative/final-report.js";
import {
  applyFrontierMutation,
  attemptCount,
  attemptsOf,
  createFrontier,
  findQuestion,
  normalizeQuestion,
  ROOT_QUESTION_ID,
} from "../../../core/investigative/frontier.js";
import { frontierExhausted } from "../../../core/investigative/gates.js";
import { EMPTY_LEDGER } from "../../../core/investigative/ledger.js";
import type { ActState, LoopHit, LoopPage, LoopResult } from "../../../core/investigative/loop-tools.js";
import { currentQuestion, decide, type ToolContext } from "../../../core/investigative/tools.js";
import { EXPLORATION_TOOLS, NOTES_TOOLS, SYNTHESIS_TOOLS, type TurnMode } from "../../../core/investigative/turns.js";
import {
  DEFAULT_INVESTIGATION_CONFIG,
  type Investigation,
  type InvestigationConfig,
  type LedgerSource,
} from "../../../core/investigative/types.js";
import { stemSet } from "../../../core/lexicon.js";
import { collapseWhitespace } from "../../../core/text.js";
import type { ActTurn } from "../../../ports/model.js";
import { englishJudge } from "../../language/english-judge.js";
import { isActState } from "./investigative-context.js";
import { facetQuestion, focusOf, objectiveFacets } from "./investigative-evidence.js";
import { offlineFinalReport } from "./investigative-report.js";
import { offlineInvestigativeTurn } from "./investigative-rules.js";
import { planQueries } from "./query-expansion.js";

// ---------------------------------------------------------------------------------------------
// Fixtures: a tiny local corpus, and the loop's tools as the real loop offers them.

const NOW = "2026-03-01T12:00:00.000Z";
const OBJECTIVE =
  "How did Sony commercialise the lithium-ion cell, which cathode material did it use, and who built the first prototype?";

interface Doc {
  path: string;
  title: string;
  text: string;
}

const CORPUS: readonly Doc[] = [
  {
    path: "history.md",
    title: "History of the lithium-ion cell",
    text:
      "History\n\nThe lithium-ion cell was commercialised by Sony in 1991. Akira Yoshino built the first prototype " +
      "in 1985 at Asahi Kasei.\n\nEarly cells used a carbon anode.",
  },
  {
    path: "sony.md",
    title: "Sony and rechargeable batteries",
    text:
      "Sony and batteries\n\nIn 1991 the lithium-ion cell was commercialised by Sony for its camcorders. The cell " +
      "used a lithium cobalt oxide cathode material.",
  },
  {
    path: "cathodes.md",
    title: "Cathode materials",
    text:
      "Cathode materials\n\nLithium cobalt oxide was the first commercial cathode material of the lithium-ion cell. " +
      "Lithium iron phosphate is a cheaper cathode material with a lower energy density.",
  },
  {
    path: "recycling.md",
    title: "Recycling",
    text: "Recycling\n\nRecycling recovers cobalt and nickel from spent cells. Hydrometallurgy dissolves metals in acid.",
  },
];

const HOST_SOURCES: readonly LedgerSource[] = CORPUS.map((doc, index) => ({
  id: sourceId(index + 1),
  location: doc.path,
  domain: "",
  title: doc.title,
  note: "",
}));

/** A page of the corpus as the loop shows it: the Host's source id and its passages. */
function pageOf(index: number, alreadyRead = false): LoopPage {
  const doc = CORPUS[index];
  if (!doc) throw new Error(`no document ${index}`);
  const id = sourceId(index + 1);
  return {
    sourceId: id,
    title: doc.title,
    location: doc.path,
    passages: alreadyRead
      ? []
      : chunkContent(doc.text, { maxChars: 200 }).map((chunk) => ({ id: chunkId(id, chunk.seq), text: chunk.text })),
    alreadyRead,
  };
}

const chunksOf = (pages: readonly LoopPage[]): Map<string, string[]> =>
  new Map(pages.map((page) => [page.sourceId, page.passages.map((passage) => passage.id)]));

/** The passage of a corpus page that holds `sentence`. */
function passageWith(index: number, sentence: string): string {
  const passage = pageOf(index).passages.find((known) => collapseWhitespace(known.text).includes(sentence));
  if (!passage) throw new Error(`no passage of document ${index} holds "${sentence}"`);
  return passage.id;
}

const SONY_1991 = "The lithium-ion cell was commercialised by Sony in 1991.";
const RECYCLING = "Recycling recovers cobalt and nickel from spent cells.";
const LFP = "Lithium iron phosphate is a cheaper cathode material with a lower energy density.";
const CATHODE = "Lithium cobalt oxide was the first commercial cathode material of the lithium-ion cell.";

/** Every page of the corpus, for a tool context that may cite any of them. */
const ALL_CHUNKS = chunksOf(CORPUS.map((_, index) => pageOf(index)));

function newInvestigation(
  objective = OBJECTIVE,
  config: Partial<InvestigationConfig> = {},
  rootCriteria?: string,
): Investigation {
  const root = rootCriteria === undefined ? {} : { validationCriteria: rootCriteria };
  const created = createFrontier(objective, { now: NOW, actor: "code" }, root);
  if (!created.ok) throw new Error(created.error.message);
  return {
    runId: 1,
    config: { ...DEFAULT_INVESTIGATION_CONFIG, ...config },
    frontier: created.value.frontier,
    ledger: EMPTY_LEDGER,
    challenges: [],
    scratch: "",
    stateSeq: 0,
  };
}

/** The investigation with the Host's sources persisted (the store lists every read source). */
const withSources = (investigation: Investigation, count = CORPUS.length): Investigation => ({
  ...investigation,
  ledger: { ...investigation.ledger, sources: HOST_SOURCES.slice(0, count) },
});

const TOOLS: ToolContext = { now: NOW, hostSources: HOST_SOURCES, hostChunks: ALL_CHUNKS };

/** Applies calls through the core's decisions; each must pass. */
function apply(
  investigation: Investigation,
  calls: readonly { name: string; args: unknown }[],
  actor: "agent" | "code" = "agent",
): Investigation {
  let current = investigation;
  for (const call of calls) {
    const decided = decide(current, call, { ...TOOLS, actor });
    if (!decided.ok) throw new Error(`${call.name} refused: ${decided.error.message}`);
    current = decided.value.investigation;
  }
  return current;
}

/** Logs a search or fetch as the loop does (and runs a challenge whose query it is). */
function logged(investigation: Investigation, query: string, tool = "search"): Investigation {
  const result = logAttempt(investigation, { query, tool, outcome: "logged" }, NOW);
  if (!result.ok) throw new Error(result.error.message);
  const { mutation } = result.value;
  const changed = new Map(mutation.challenges.map((challenge) => [challenge.id, challenge]));
  return {
    ...investigation,
    frontier: applyFrontierMutation(investigation.frontier, mutation),
    challenges: investigation.challenges.map((challenge) => changed.get(challenge.id) ?? challenge),
  };
}

function stateOf(investigation: Investigation, overrides: Partial<ActState> = {}): ActState {
  return {
    kind: "investigative",
    phase: "exploration",
    mode: { kind: "normal" },
    turn: 1,
    offered: [...EXPLORATION_TOOLS],
    currentQuestionId: currentQuestion(investigation)?.id ?? null,
    investigation,
    pendingPages: [],
    lastResults: [],
    reopensLeft: 1,
    searchesLeft: 20,
    readsLeft: 20,
    ...overrides,
  };
}

/** An expanded frontier (the engine's own expansion) with the first facet selected. */
function expandedInvestigation(config: Partial<InvestigationConfig> = {}): Investigation {
  const expansion = offlineInvestigativeTurn(stateOf(newInvestigation(OBJECTIVE, config)));
  return apply(
    apply(withSources(newInvestigation(OBJECTIVE, config)), expansion.calls),
    [{ name: "frontier_next", args: {} }],
    "code",
  );
}

const names = (turn: ActTurn): string[] => turn.calls.map((call) => call.name);
const argsOf = (turn: ActTurn, index = 0): Record<string, unknown> =>
  (turn.calls[index]?.args ?? {}) as Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// A simulated loop: the engine's calls through the core's decisions, search and fetch_page
// over the in-memory corpus, selection, forced extraction, commits, the final verification
// check and synthesis as the investigative strategy runs them.

const VERIFY_RATIONALE = "Final verification check: a resolved question cites this claim while it is UNVERIFIED.";

class Simulation {
  investigation: Investigation;
  readonly chunks = new Map<string, string[]>();
  readonly fullPages = new Map<string, LoopPage>();
  readonly hitDocs = new Map<string, number>();
  /** Fetched pages not committed yet (nothing extracted from them). */
  pending: LoopPage[] = [];
  lastResults: LoopResult[] = [];
  phase: "exploration" | "synthesis" = "exploration";
  turn = 0;
  report: ReturnType<typeof offlineFinalReport> | undefined;
  readonly turns: { state: ActState; act: ActTurn; results: LoopResult[] }[] = [];

  constructor(
    readonly docs: readonly Doc[],
    config: Partial<InvestigationConfig> = {},
    objective = OBJECTIVE,
  ) {
    this.investigation = newInvestigation(objective, config);
  }

  get refused(): LoopResult[] {
    return this.turns.flatMap((turn) => turn.results.filter((result) => !result.ok));
  }

  private context(actor: "agent" | "code" = "agent"): ToolContext {
    return { now: NOW, hostSources: this.investigation.ledger.sources, hostChunks: this.chunks, actor };
  }

  private code(name: string, args: unknown): boolean {
    const decided = decide(this.investigation, { name, args }, this.context("code"));
    if (decided.ok) this.investigation = decided.value.investigation;
    return decided.ok;
  }

  private expanded(): boolean {
    const { frontier } = this.investigation;
    return frontier.rootAtomic || frontier.questions.some((question) => question.parentId === ROOT_QUESTION_ID);
  }

  /** The strategy's final verification check: one question per UNVERIFIED claim a resolved question cites. */
  private queueVerification(): boolean {
    const { frontier, ledger } = this.investigation;
    const cited = new Set(frontier.questions.filter((q) => q.status === "resolved").flatMap((q) => q.claimIds));
    const queued = new Set(
      frontier.questions
        .filter((question) => question.rationale === VERIFY_RATIONALE)
        .flatMap((question) => question.question.match(/c_\d+/) ?? []),
    );
    let added = false;
    for (const claim of ledger.claims) {
      if (claim.status !== "UNVERIFIED" || !cited.has(claim.id) || queued.has(claim.id)) continue;
      added =
        this.code("add_question", {
          parent_id: ROOT_QUESTION_ID,
          question: `Is ${claim.id} supported by an independent source: ${claim.text.slice(0, 400)}`,
          rationale: VERIFY_RATIONALE,
          priority: 0.6,
          validation_criteria: `a source independent of ${claim.id}'s sources supports it and a challenge of it survives`,
          target_sources: [],
        }) || added;
    }
    return added;
  }

  private search(query: string): LoopResult["hits"] {
    const wanted = stemSet(query);
    const hits: LoopHit[] = this.docs
      .map((doc, index) => ({
        doc,
        index,
        score: [...stemSet(`${doc.title} ${doc.text}`)].filter((t) => wanted.has(t)).length,
      }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, 3)
      .map(({ doc, index }) => {
        const handle = `h${this.hitDocs.size + 1}`;
        this.hitDocs.set(handle, index);
        return { handle, title: doc.title, location: doc.path, snippet: doc.text.slice(0, 80) };
      });
    this.investigation = logged(this.investigation, query);
    return hits;
  }

  private fetch(handle: string): LoopPage | undefined {
    const index = this.hitDocs.get(handle);
    const doc = index === undefined ? undefined : this.docs[index];
    if (index === undefined || !doc) return undefined;
    const id = sourceId(index + 1);
    const alreadyRead = this.fullPages.has(id);
    if (!alreadyRead) {
      const page: LoopPage = {
        sourceId: id,
        title: doc.title,
        location: doc.path,
        passages: chunkContent(doc.text, { maxChars: 200 }).map((chunk) => ({
          id: chunkId(id, chunk.seq),
          text: chunk.text,
        })),
        alreadyRead: false,
      };
      this.fullPages.set(id, page);
      this.chunks.set(
        id,
        page.passages.map((passage) => passage.id),
      );
      const source: LedgerSource = { id, location: doc.path, domain: "", title: doc.title, note: "" };
      this.investigation = {
        ...this.investigation,
        ledger: { ...this.investigation.ledger, sources: [...this.investigation.ledger.sources, source] },
      };
      this.pending.push(page);
    }
    this.investigation = logged(this.investigation, doc.path, "fetch_page");
    const page = this.fullPages.get(id);
    return page && alreadyRead ? { ...page, passages: [], alreadyRead: true } : page;
  }

  private run(call: { name: string; args: unknown }, offered: readonly string[]): LoopResult {
    const base = { callId: "", name: call.name, args: call.args };
    if (!offered.includes(call.name)) return { ...base, ok: false, text: "not offered" };
    const args = (call.args ?? {}) as Record<string, string>;
    if (call.name === "search") {
      const hits = this.search(args.query ?? "");
      return { ...base, ok: true, text: `${hits?.length ?? 0} hits`, ...(hits ? { hits } : {}) };
    }
    if (call.name === "fetch_page") {
      const page = this.fetch(args.hit ?? "");
      return page ? { ...base, ok: true, text: page.sourceId, page } : { ...base, ok: false, text: "no such hit" };
    }
    if (call.name === "notes_read" || call.name === "finish_exploration") return { ...base, ok: false, text: "unused" };
    if (call.name === "finalize_report") {
      const parsed = parseFinalReport(call.args);
      if (!parsed.ok) return { ...base, ok: false, text: parsed.error };
      const ids = this.investigation.ledger.sources.map((source) => source.id);
      const gate = finalizationGate(this.investigation, parsed.value, ids);
      if (!gate.passed) return { ...base, ok: false, text: gate.missing.join("\n") };
      this.report = parsed.value;
      return { ...base, ok: true, text: "accepted" };
    }
    const decided = decide(this.investigation, call, this.context());
    if (!decided.ok) return { ...base, ok: false, text: decided.error.message };
    this.investigation = decided.value.investigation;
    return { ...base, ok: true, text: decided.value.text };
  }

  private mode(): TurnMode {
    const big = this.pending.filter(
      (page) =>
        page.passages.reduce((sum, p) => sum + p.text.length, 0) > this.investigation.config.extractionThreshold,
    );
    const questionId = currentQuestion(this.investigation)?.id ?? ROOT_QUESTION_ID;
    return big.length === 0 ? { kind: "normal" } : { kind: "extraction", questionId, pending: [] };
  }

  /** One turn of the loop; false once the run is over. */
  step(): boolean {
    if (this.report) return false;
    if (this.phase === "exploration") {
      if (!currentQuestion(this.investigation) && this.expanded()) this.code("frontier_next", {});
      if (frontierExhausted(this.investigation) && !this.queueVerification()) this.phase = "synthesis";
      else if (!currentQuestion(this.investigation) && this.expanded()) this.code("frontier_next", {});
    }
    const mode: TurnMode = this.phase === "synthesis" ? { kind: "normal" } : this.mode();
    const offered: string[] =
      this.phase === "synthesis"
        ? [...SYNTHESIS_TOOLS]
        : mode.kind === "normal"
          ? [...EXPLORATION_TOOLS]
          : [...NOTES_TOOLS];
    this.turn++;
    // The state is plain JSON-safe data (a copy: the run goes on changing its own arrays).
    const state = JSON.parse(
      JSON.stringify(
        stateOf(this.investigation, {
          phase: this.phase,
          mode,
          turn: this.turn,
          offered,
          pendingPages: this.pending,
          lastResults: this.lastResults,
        }),
      ),
    ) as ActState;
    const act = offlineInvestigativeTurn(state);
    const results = act.calls.map((call) => ({ ...this.run(call, offered), callId: call.id }));
    const cited = new Set(
      results
        .filter((result) => result.ok)
        .flatMap((result) => JSON.stringify(result.args).match(/s_\d{3}(?!\.)/g) ?? []),
    );
    if (mode.kind === "extraction") {
      for (const page of this.pending.filter((p) => !cited.has(p.sourceId))) {
        this.code("notes_append", {
          section: "sources",
          entries: [{ source_id: page.sourceId, note: "read, nothing relevant" }],
        });
      }
      this.pending = [];
    } else {
      this.pending = this.pending.filter((page) => !cited.has(page.sourceId) || results.some((r) => r.page === page));
    }
    this.turns.push({ state, act, results });
    this.lastResults = results;
    return this.report === undefined;
  }

  runToEnd(maxTurns = 80): void {
    while (this.turn < maxTurns && this.step()) {
      // each step is one turn
    }
  }
}

// ---------------------------------------------------------------------------------------------
// States built with the core's own decisions

/** q_002 (facet "Sony") in progress with c_001 read from s_001 (history.md), its search logged. */
function withClaim(config: Partial<InvestigationConfig> = {}): Investigation {
  const investigation = logged(expandedInvestigation(config), "Sony");
  return apply(investigation, [
    {
      name: "notes_append",
      args: {
        section: "unverified",
        entries: [
          {
            text: SONY_1991,
            source_ids: ["s_001"],
            passage_ids: [passageWith(0, SONY_1991)],
            question_id: "q_002",
          },
        ],
      },
    },
  ]);
}

/** `withClaim` plus the engine's own challenge of c_001, its search run (and a page read after it). */
function challenged(config: Partial<InvestigationConfig> = {}): Investigation {
  const investigation = withClaim(config);
  const turn = offlineInvestigativeTurn(stateOf(investigation));
  const challenge = turn.calls[0];
  if (!challenge || challenge.name !== "challenge") throw new Error("expected a challenge");
  const query = String((challenge.args as { query: string }).query);
  return logged(logged(apply(investigation, [challenge]), query), "sony.md", "fetch_page");
}

const SEARCH_RESULT = (hits: readonly LoopHit[]): LoopResult => ({
  callId: "call_1_1",
  name: "search",
  args: { query: "Sony" },
  ok: true,
  text: "hits",
  hits,
});

const hitOf = (index: number): LoopHit => ({
  handle: `h${index + 1}`,
  title: CORPUS[index]?.title ?? "",
  location: CORPUS[index]?.path ?? "",
  snippet: "",
});

describe("offline investigative rules", () => {
  it("expands the objective into its facets, priorities descending from 0.9, each accepted by the core", () => {
    const investigation = newInvestigation();
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    const facets = objectiveFacets(OBJECTIVE, 8);
    // The request's key words as a whole, then the planner's facets (names and runs).
    expect(facets).toEqual([
      "Sony commercialise lithium-ion cell cathode material use built first prototype",
      ...planQueries(OBJECTIVE, [], { maxQueries: 7, maxQueryChars: 200 }),
    ]);
    expect(names(turn)).toEqual(facets.map(() => "add_question"));
    expect(turn.calls.map((call) => call.id)).toEqual(facets.map((_, index) => `call_1_${index + 1}`));
    expect(turn.calls.map((call) => (call.args as { question: string }).question)).toEqual(
      facets.map((facet) => facetQuestion(facet, OBJECTIVE)),
    );
    expect(turn.calls.map((call) => (call.args as { priority: number }).priority)).toEqual(
      facets.map((_, index) => Math.round((0.9 - 0.1 * index) * 100) / 100),
    );
    const expanded = apply(investigation, turn.calls);
    expect(expanded.frontier.questions.filter((question) => question.parentId === ROOT_QUESTION_ID)).toHaveLength(
      facets.length,
    );
  });

  it("declares an objective with fewer than two facets atomic, then works on the root itself", () => {
    const investigation = newInvestigation("What is the capital of France?", {}, "the name of a city");
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(turn)).toEqual(["declare_atomic"]);
    const atomic = apply(apply(investigation, turn.calls), [{ name: "frontier_next", args: {} }], "code");
    expect(atomic.frontier.rootAtomic).toBe(true);
    const next = offlineInvestigativeTurn(stateOf(atomic, { turn: 2 }));
    expect(next.calls).toEqual([{ id: "call_2_1", name: "search", args: { query: "What is the capital of France?" } }]);
  });

  it("searches the bridge a page read names when no page answers the objective, once", () => {
    const objective = "Who founded the label that released the album Blue Harvest?";
    const declared = apply(
      newInvestigation(objective),
      offlineInvestigativeTurn(stateOf(newInvestigation(objective))).calls,
    );
    const atomic = logged(apply(declared, [{ name: "frontier_next", args: {} }], "code"), objective);
    const album: LoopPage = {
      sourceId: sourceId(1),
      title: "Blue Harvest",
      location: "blue-harvest.md",
      passages: [
        { id: chunkId(sourceId(1), 1), text: "Blue Harvest is an album released in 2001 by Northlight Records." },
      ],
      alreadyRead: false,
    };
    const turn = offlineInvestigativeTurn(stateOf(atomic, { readPages: [album] }));
    expect(names(turn)).toEqual(["search"]);
    expect(String(argsOf(turn).query)).toMatch(/^Northlight Records\b/);
    // Searched once: the next turn does not search it again.
    const after = offlineInvestigativeTurn(stateOf(logged(atomic, String(argsOf(turn).query)), { readPages: [album] }));
    expect(after.calls.map((call) => (call.args as { query?: string }).query)).not.toContain(argsOf(turn).query);
    // A page that answers it: no bridge to search.
    const label: LoopPage = {
      sourceId: sourceId(2),
      title: "Northlight Records",
      location: "northlight-records.md",
      passages: [{ id: chunkId(sourceId(2), 0), text: "The label was founded by Mara Quint in 1994 in Leeds." }],
      alreadyRead: false,
    };
    const answered = offlineInvestigativeTurn(stateOf(atomic, { readPages: [album, label] }));
    expect(String((answered.calls[0]?.args as { query?: string } | undefined)?.query ?? "")).not.toMatch(/^Northlight/);
  });

  it("searches a name of the objective that no page read is titled after, where no page names a bridge", () => {
    const objective = "Which plant is larger, the Pterocarya or the Cotula?";
    const declared = apply(
      newInvestigation(objective),
      offlineInvestigativeTurn(stateOf(newInvestigation(objective))).calls,
    );
    const working = logged(apply(declared, [{ name: "frontier_next", args: {} }], "code"), objective);
    const cotula: LoopPage = {
      sourceId: sourceId(1),
      title: "Cotula",
      location: "cotula.md",
      passages: [
        { id: chunkId(sourceId(1), 1), text: "Cotula is a genus of small flowering plants in the daisy family." },
      ],
      alreadyRead: false,
    };
    const turn = offlineInvestigativeTurn(stateOf(working, { readPages: [cotula] }));
    expect(names(turn)).toEqual(["search"]);
    expect(argsOf(turn).query).toBe("Pterocarya");
    // Once both are read, neither is searched again.
    const pterocarya: LoopPage = {
      ...cotula,
      sourceId: sourceId(2),
      title: "Pterocarya",
      location: "pterocarya.md",
      passages: [{ id: chunkId(sourceId(2), 1), text: "Pterocarya is a genus of large deciduous trees." }],
    };
    const both = offlineInvestigativeTurn(stateOf(logged(working, "Pterocarya"), { readPages: [cotula, pterocarya] }));
    expect(both.calls.map((call) => (call.args as { query?: string }).query)).not.toContain("Cotula");
  });

  it("records the first hop of an answer with the page that completes it, though it says more than a claim recorded", () => {
    const objective = "What was the population of the town where Kerry Saxby was born?";
    const declared = apply(
      newInvestigation(objective),
      offlineInvestigativeTurn(stateOf(newInvestigation(objective))).calls,
    );
    const atomic = withSources(logged(apply(declared, [{ name: "frontier_next", args: {} }], "code"), objective));
    const walker = "Kerry Saxby is a retired Australian race walker.";
    const kerry: LoopPage = {
      sourceId: sourceId(1),
      title: "Kerry Saxby",
      location: "kerry-saxby.md",
      passages: [{ id: chunkId(sourceId(1), 1), text: `${walker} She was born in Young, New South Wales.` }],
      alreadyRead: false,
    };
    const recorded = apply(atomic, [
      {
        name: "notes_append",
        args: {
          section: "unverified",
          entries: [
            { text: walker, source_ids: [sourceId(1)], passage_ids: [chunkId(sourceId(1), 1)], question_id: "q_001" },
          ],
        },
      },
    ]);
    const young: LoopPage = {
      sourceId: sourceId(2),
      title: "Young, New South Wales",
      location: "young.md",
      passages: [{ id: chunkId(sourceId(2), 1), text: "At the 2011 census, Young had a population of 6,960." }],
      alreadyRead: false,
    };
    const turn = offlineInvestigativeTurn(
      stateOf(recorded, {
        mode: { kind: "extraction", questionId: "q_001", pending: [] },
        offered: [...NOTES_TOOLS],
        pendingPages: [young],
        readPages: [kerry],
      }),
    );
    const append = turn.calls.find((call) => call.name === "notes_append");
    const texts = ((append?.args ?? { entries: [] }) as { entries: { text: string }[] }).entries.map(
      (entry) => entry.text,
    );
    expect(texts).toContain("At the 2011 census, Young had a population of 6,960.");
    expect(texts).toContain(`${walker} She was born in Young, New South Wales.`);
  });

  it("declares an objective with a single facet atomic; the root (with its default criteria) is then resolvable", () => {
    const investigation = newInvestigation("What is the capital of France?");
    expect(findQuestion(investigation.frontier, ROOT_QUESTION_ID)?.validationCriteria).not.toBe("");
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(turn)).toEqual(["declare_atomic"]);
    const declared = apply(investigation, turn.calls);
    expect(declared.frontier.rootAtomic).toBe(true);
  });

  it("gives up a question no rule can move instead of idling", () => {
    const investigation = withClaim();
    // Only resolve_question and retry_question are offered; the resolution is refused by the loop.
    const refusedResolve = offlineInvestigativeTurn(stateOf(investigation, { offered: ["resolve_question"] }));
    const lastResults: LoopResult[] = refusedResolve.calls.map((call) => ({
      callId: call.id,
      name: call.name,
      args: call.args,
      ok: false,
      text: "Refused.",
    }));
    const turn = offlineInvestigativeTurn(
      stateOf(investigation, { offered: ["resolve_question", "retry_question", "notes_read"], lastResults }),
    );
    expect(names(turn)).toEqual(["retry_question"]);
    expect(argsOf(turn)).toMatchObject({ id: "q_002" });
    expect(findQuestion(apply(investigation, turn.calls).frontier, "q_002")?.status).toBe("pending");
  });

  it("searches the request as written first, then the focus of the selected question, then a query not tried yet", () => {
    const investigation = expandedInvestigation();
    expect(findQuestion(investigation.frontier, "q_002")?.status).toBe("in_progress");
    const focus = objectiveFacets(OBJECTIVE, 8)[0] ?? "";
    const first = offlineInvestigativeTurn(stateOf(investigation));
    expect(first.calls).toEqual([{ id: "call_1_1", name: "search", args: { query: OBJECTIVE } }]);
    const second = offlineInvestigativeTurn(stateOf(logged(investigation, OBJECTIVE)));
    expect(second.calls).toEqual([{ id: "call_1_1", name: "search", args: { query: focus } }]);
    const third = offlineInvestigativeTurn(stateOf(logged(logged(investigation, OBJECTIVE), focus)));
    expect(names(third)).toEqual(["search"]);
    const tried = [OBJECTIVE, focus].map(normalizeQuestion);
    expect(tried).not.toContain(normalizeQuestion(String(argsOf(third).query)));
  });

  it("reads the first two hits of the previous search that were not read before", () => {
    const investigation = withSources(expandedInvestigation(), 1);
    const turn = offlineInvestigativeTurn(
      stateOf(investigation, { lastResults: [SEARCH_RESULT([hitOf(0), hitOf(1), hitOf(2), hitOf(3), hitOf(4)])] }),
    );
    expect(turn.calls).toEqual([
      { id: "call_1_1", name: "fetch_page", args: { hit: "h2" } },
      { id: "call_1_2", name: "fetch_page", args: { hit: "h3" } },
    ]);
    const oneRead = offlineInvestigativeTurn(
      stateOf(investigation, { readsLeft: 1, lastResults: [SEARCH_RESULT([hitOf(0), hitOf(1), hitOf(2)])] }),
    );
    expect(oneRead.calls).toEqual([{ id: "call_1_1", name: "fetch_page", args: { hit: "h2" } }]);
  });

  it("extracts the best sentences of a forced page with the passages they were read from", () => {
    const investigation = expandedInvestigation();
    const page = pageOf(0);
    const turn = offlineInvestigativeTurn(
      stateOf(investigation, {
        mode: { kind: "extraction", questionId: "q_002", pending: [] },
        offered: [...NOTES_TOOLS],
        pendingPages: [page],
      }),
    );
    expect(names(turn)).toEqual(["notes_append"]);
    const { section, entries } = argsOf(turn) as {
      section: string;
      entries: { text: string; source_ids: string[]; passage_ids: string[]; question_id: string }[];
    };
    expect(section).toBe("unverified");
    expect(entries.map((entry) => entry.question_id)).toContain("q_002");
    for (const entry of entries) {
      expect(entry.source_ids).toEqual(["s_001"]);
      const passage = page.passages.find((known) => known.id === entry.passage_ids[0]);
      expect(collapseWhitespace(passage?.text ?? "")).toContain(entry.text);
    }
    const sony = entries.find((entry) => entry.question_id === "q_002");
    expect(sony?.text).toBe(SONY_1991);
    const after = apply(investigation, turn.calls);
    expect(after.ledger.claims.map((claim) => claim.status)).toEqual(entries.map(() => "UNVERIFIED"));
    expect(after.ledger.claimSources[0]?.chunkIds).toEqual([sony?.passage_ids[0]]);
  });

  it('notes a page with nothing relevant for any open question as "read, nothing relevant"', () => {
    const investigation = expandedInvestigation();
    const turn = offlineInvestigativeTurn(stateOf(investigation, { pendingPages: [pageOf(3)] }));
    expect(turn.calls).toEqual([
      {
        id: "call_1_1",
        name: "notes_append",
        args: { section: "sources", entries: [{ source_id: "s_004", note: "read, nothing relevant" }] },
      },
    ]);
    const after = apply(investigation, turn.calls);
    expect(after.ledger.sources.find((source) => source.id === "s_004")?.note).toBe("read, nothing relevant");
    // Extracted: the page is not extracted again.
    expect(names(offlineInvestigativeTurn(stateOf(after, { pendingPages: [pageOf(3)] })))).not.toContain(
      "notes_append",
    );
  });

  it("links a page that states a recorded claim as its second, independent source", () => {
    const investigation = withClaim();
    const turn = offlineInvestigativeTurn(stateOf(investigation, { pendingPages: [pageOf(1)] }));
    const update = turn.calls.find((call) => call.name === "notes_update");
    expect(update?.args).toMatchObject({
      id: "c_001",
      add_source: {
        source_id: "s_002",
        stance: "supports",
        passage_ids: [passageWith(1, "In 1991 the lithium-ion cell was commercialised by Sony for its camcorders.")],
      },
    });
    expect(String((update?.args as { independence: string }).independence)).toContain("corpus:sony.md");
    const after = apply(investigation, turn.calls);
    const links = after.ledger.claimSources.filter((link) => link.claimId === "c_001");
    expect(links.map((link) => link.sourceId)).toEqual(["s_001", "s_002"]);
  });

  it("challenges the lead claim with a distinct adversarial query and runs it in the same turn", () => {
    const investigation = withClaim();
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(turn)).toEqual(["challenge", "search"]);
    const challenge = argsOf(turn) as { target_id: string; strategy: string; query: string };
    expect(challenge).toMatchObject({ target_type: "claim", target_id: "c_001", strategy: "negation" });
    expect(argsOf(turn, 1)).toEqual({ query: challenge.query });
    const claimTerms = queryTerms(SONY_1991);
    expect([...queryTerms(challenge.query)].some((term) => !claimTerms.has(term))).toBe(true);
    const tried = attemptsOf(investigation.frontier, "q_002").map((attempt) => normalizeQuery(attempt.query));
    expect(tried).not.toContain(normalizeQuery(challenge.query));
    expect(apply(investigation, [turn.calls[0] ?? { name: "", args: {} }]).challenges).toHaveLength(1);
  });

  it("challenges the claim most relevant to the objective, not the first recorded or the best sourced", () => {
    // c_001: off the objective but stated by two independent pages; c_002: the answer, one page.
    const investigation = apply(logged(expandedInvestigation(), "Sony"), [
      {
        name: "notes_append",
        args: {
          section: "unverified",
          entries: [
            { text: RECYCLING, source_ids: ["s_004"], passage_ids: [passageWith(3, RECYCLING)], question_id: "q_002" },
            { text: SONY_1991, source_ids: ["s_001"], passage_ids: [passageWith(0, SONY_1991)], question_id: "q_002" },
          ],
        },
      },
      {
        name: "notes_update",
        args: {
          id: "c_001",
          add_source: { source_id: "s_003", stance: "supports", passage_ids: [pageOf(2).passages[0]?.id] },
          independence: "s_004 and s_003 come from distinct origins.",
        },
      },
    ]);
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(turn)).toEqual(["challenge", "search"]);
    expect(argsOf(turn)).toMatchObject({ target_type: "claim", target_id: "c_002" });
  });

  it("gives a question's places to the sentences that answer the objective best, across the pages of a turn", () => {
    const investigation = expandedInvestigation();
    // The page with the best sentence last: in page order the other pages would take the first places.
    const pages = [pageOf(3), pageOf(0), pageOf(2)];
    const turn = offlineInvestigativeTurn(
      stateOf(investigation, {
        mode: { kind: "extraction", questionId: "q_002", pending: [] },
        offered: [...NOTES_TOOLS],
        pendingPages: pages,
      }),
    );
    const append = turn.calls.find((call) => call.name === "notes_append");
    const { entries } = (append?.args ?? { entries: [] }) as {
      entries: { text: string; source_ids: string[]; question_id: string }[];
    };
    const own = entries.filter((entry) => entry.question_id === "q_002");
    expect(own[0]).toMatchObject({ text: CATHODE, source_ids: ["s_003"] });
    expect(own.map((entry) => entry.text)).toContain(SONY_1991);
    expect(entries.map((entry) => entry.text)).not.toContain(RECYCLING);
    const after = apply(investigation, turn.calls);
    expect(after.ledger.claims.map((claim) => claim.text)).toEqual(entries.map((entry) => entry.text));
  });

  it("closes an executed challenge that read something and met no contradiction as survived, unverified without an independent source, then tries another strategy", () => {
    const investigation = challenged();
    const verdict = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(verdict)).toEqual(["record_challenge_result"]);
    expect(argsOf(verdict)).toMatchObject({ challenge_id: "ch_001", outcome: "survived", source_ids: [] });
    const closed = apply(investigation, verdict.calls);
    const next = offlineInvestigativeTurn(stateOf(closed));
    expect(names(next)).toEqual(["challenge", "search"]);
    const again = argsOf(next) as { strategy: string; query: string };
    expect(again.strategy).toBe("alternative_method");
    const first = closed.challenges[0]?.query ?? "";
    expect(normalizeQuery(again.query)).not.toBe(normalizeQuery(first));
  });

  it("stops challenging a claim on a question once a challenge's search read nothing new, and resolves", () => {
    const investigation = withClaim();
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    const query = String(argsOf(turn).query);
    const ran = logged(apply(investigation, [turn.calls[0] ?? { name: "", args: {} }]), query);
    const closed = apply(ran, offlineInvestigativeTurn(stateOf(ran)).calls);
    expect(closed.challenges[0]?.outcome).toBe("inconclusive");
    const next = offlineInvestigativeTurn(stateOf(closed));
    expect(names(next)).toEqual(["resolve_question"]);
    expect(argsOf(next)).toMatchObject({ id: "q_002", claim_ids: ["c_001"] });
    expect(String(argsOf(next).reason)).toContain("UNVERIFIED is the best available");
    const resolved = apply(closed, next.calls);
    expect(findQuestion(resolved.frontier, "q_002")?.status).toBe("resolved");
  });

  it("verifies a claim whose challenge survived with an independent source, then resolves the question with it", () => {
    const investigation = challenged();
    const linked = apply(
      investigation,
      offlineInvestigativeTurn(stateOf(investigation, { pendingPages: [pageOf(1)] })).calls,
    );
    const verdict = offlineInvestigativeTurn(stateOf(linked));
    expect(names(verdict)).toEqual(["record_challenge_result", "notes_update"]);
    expect(argsOf(verdict)).toMatchObject({ challenge_id: "ch_001", outcome: "survived", source_ids: [] });
    expect(String(argsOf(verdict).evidence)).toMatch(/read so far contradicts it\.$/);
    expect(argsOf(verdict, 1)).toMatchObject({ id: "c_001", status: "VERIFIED" });
    const verified = apply(linked, verdict.calls);
    expect(verified.ledger.claims.find((claim) => claim.id === "c_001")?.status).toBe("VERIFIED");
    const resolve = offlineInvestigativeTurn(stateOf(verified));
    expect(names(resolve)).toEqual(["resolve_question"]);
    expect(argsOf(resolve)).toMatchObject({ id: "q_002", claim_ids: ["c_001"] });
    // Depth 1: the answer carries the conclusion; the stored reason says why no answer challenge ran.
    expect(String(argsOf(resolve).reason)).toContain("VERIFIED");
    expect(findQuestion(apply(verified, resolve.calls).frontier, "q_002")?.status).toBe("resolved");
  });

  it("gives up a question at its last attempt with an assumption: it becomes unresolvable", () => {
    const config = { maxAttempts: 3 };
    let investigation = expandedInvestigation(config);
    investigation = logged(logged(investigation, "Sony"), "What do the sources state about Sony?");
    expect(attemptCount(investigation.frontier, "q_002")).toBe(2);
    const turn = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(turn)).toEqual(["retry_question"]);
    expect(argsOf(turn)).toMatchObject({ id: "q_002" });
    expect(String(argsOf(turn).assumption)).toContain("Sony");
    const after = apply(investigation, turn.calls);
    const question = findQuestion(after.frontier, "q_002");
    expect(question?.status).toBe("unresolvable");
    expect(question?.answer).toBe(argsOf(turn).assumption);
  });

  it("writes a report that passes the schema and the finalization gate: VERIFIED first, real statuses, every gap", () => {
    const sim = new Simulation(CORPUS);
    sim.runToEnd();
    // Ledger order with an UNVERIFIED claim before a VERIFIED one, so the report must reorder them.
    let investigation: Investigation = {
      ...sim.investigation,
      ledger: { ...sim.investigation.ledger, claims: [...sim.investigation.ledger.claims].reverse() },
    };
    const ledgerStatuses = investigation.ledger.claims.map((claim) => claim.status);
    expect(ledgerStatuses.indexOf("UNVERIFIED")).toBeLessThan(ledgerStatuses.lastIndexOf("VERIFIED"));
    investigation = apply(investigation, [
      {
        name: "add_question",
        args: {
          parent_id: ROOT_QUESTION_ID,
          question: "Which c_001 rival did Exxon build?",
          rationale: "a gap",
          priority: 0.2,
          validation_criteria: "a passage",
          target_sources: [],
        },
      },
    ]);
    const id = investigation.frontier.questions.at(-1)?.id ?? "";
    investigation = apply(investigation, [
      { name: "retry_question", args: { id, new_query: "exxon", why: "nothing", assumption: "none known" } },
    ]);
    investigation = apply(investigation, [
      { name: "retry_question", args: { id, new_query: "exxon 2", why: "nothing", assumption: "none known" } },
    ]);
    const unresolvable = apply(
      apply(investigation, [{ name: "retry_question", args: { id, new_query: "exxon 3", why: "x", assumption: "y" } }]),
      [{ name: "retry_question", args: { id, new_query: "exxon 4", why: "x", assumption: "none known" } }],
    );
    expect(findQuestion(unresolvable.frontier, id)?.status).toBe("unresolvable");
    const turn = offlineInvestigativeTurn(
      stateOf(unresolvable, { phase: "synthesis", offered: [...SYNTHESIS_TOOLS], currentQuestionId: null }),
    );
    expect(names(turn)).toEqual(["finalize_report"]);
    const parsed = parseFinalReport(argsOf(turn));
    if (!parsed.ok) throw new Error(parsed.error);
    const report = parsed.value;
    const ids = unresolvable.ledger.sources.map((source) => source.id);
    expect(finalizationGate(unresolvable, report, ids)).toEqual({ passed: true, missing: [] });
    const statuses = report.keyClaims.map((entry) => entry.status);
    expect(statuses.indexOf("UNVERIFIED")).toBeGreaterThan(statuses.lastIndexOf("VERIFIED"));
    for (const entry of report.keyClaims) {
      expect(unresolvable.ledger.claims.find((claim) => claim.id === entry.claimId)?.status).toBe(entry.status);
    }
    const gap = report.gaps.find((entry) => entry.questionIds.includes(id));
    // The question's own "c_001" is not a citation of the gap.
    expect(gap?.text).toContain("Which rival did Exxon build?");
    expect(gap?.text).toContain("none known");
  });

  it("orders the report's claims by relevance to the objective within a status, and leaves out those off it", () => {
    const entry = (text: string, index: number) => ({
      text,
      source_ids: [sourceId(index + 1)],
      passage_ids: [passageWith(index, text)],
      question_id: "q_002",
    });
    const investigation = apply(expandedInvestigation(), [
      {
        name: "notes_append",
        args: { section: "unverified", entries: [entry(RECYCLING, 3), entry(LFP, 2), entry(SONY_1991, 0)] },
      },
    ]);
    const report = offlineFinalReport(investigation, englishJudge());
    // Ledger order c_001 (off the objective), c_002, c_003: the report leads with c_003 and drops c_001.
    expect(report.keyClaims).toEqual([
      { claimId: "c_003", status: "UNVERIFIED" },
      { claimId: "c_002", status: "UNVERIFIED" },
    ]);
    expect(report.items.map((item) => item.text)).toEqual([SONY_1991, LFP]);
    expect(report.summary).not.toContain(RECYCLING);
    expect(
      finalizationGate(
        investigation,
        report,
        HOST_SOURCES.map((source) => source.id),
      ).passed,
    ).toBe(true);
  });

  it("keeps a claim as relevant to one part of the objective as the best claim for it, and a claim read in the passage of a relevant one", () => {
    const objective =
      "Who built the first prototype of the lithium-ion cell in 1985 at Asahi Kasei, and what does hydrometallurgy do?";
    const entry = (text: string, index: number) => ({
      text,
      source_ids: [sourceId(index + 1)],
      passage_ids: [passageWith(index, text)],
      question_id: "q_001",
    });
    const prototype = "Akira Yoshino built the first prototype in 1985 at Asahi Kasei.";
    const hydrometallurgy = "Hydrometallurgy dissolves metals in acid.";
    const investigation = apply(withSources(newInvestigation(objective)), [
      {
        name: "notes_append",
        args: {
          section: "unverified",
          entries: [entry(prototype, 0), entry(hydrometallurgy, 3), entry(RECYCLING, 3), entry(LFP, 2)],
        },
      },
    ]);
    const kept = offlineFinalReport(investigation, englishJudge()).items.map((item) => item.text);
    // The second part's answer shares little with the whole objective; the sentence beside it in its
    // passage stays with it; the cathode sentence, off every part, does not.
    expect(kept).toEqual(expect.arrayContaining([prototype, hydrometallurgy, RECYCLING]));
    expect(kept).not.toContain(LFP);
  });

  it("reports a claim once where another claim quotes it whole with the sentence after it", () => {
    const objective = "What does hydrometallurgy recover from spent cells?";
    const entry = (text: string) => ({
      text,
      source_ids: [sourceId(4)],
      passage_ids: [passageWith(3, RECYCLING)],
      question_id: "q_001",
    });
    const both = `${RECYCLING} Hydrometallurgy dissolves the metals in acid.`;
    const investigation = apply(withSources(newInvestigation(objective)), [
      { name: "notes_append", args: { section: "unverified", entries: [entry(RECYCLING), entry(both)] } },
    ]);
    expect(offlineFinalReport(investigation, englishJudge()).items.map((item) => item.text)).toEqual([both]);
  });

  it("phrases a facet as the objective narrowed to it, and reads the facet back as the focus", () => {
    const question = facetQuestion("lithium cobalt oxide", OBJECTIVE);
    expect(question).toBe(`Regarding “lithium cobalt oxide”: ${OBJECTIVE}`);
    expect(focusOf(question)).toBe("lithium cobalt oxide");
    expect(focusOf(OBJECTIVE)).toBe(OBJECTIVE);
    expect(facetQuestion("x", "y".repeat(900)).length).toBeLessThanOrEqual(500);
  });

  it("with no live claim in synthesis, finalizes a report of gaps only that says nothing was established", () => {
    const state = stateOf(withSources(expandedInvestigation()), {
      phase: "synthesis",
      offered: [...SYNTHESIS_TOOLS],
    });
    const report = offlineFinalReport(state.investigation, englishJudge());
    expect(report.items).toEqual([]);
    expect(report.summary).toContain("No source read stated a finding");
    const hostSourceIds = state.investigation.ledger.sources.map((source) => source.id);
    expect(finalizationGate(state.investigation, report, hostSourceIds).passed).toBe(true);
    expect(names(offlineInvestigativeTurn(state))).toEqual(["finalize_report"]);
  });

  it("calls only the forced tool on a forced turn", () => {
    const sim = new Simulation(CORPUS);
    sim.runToEnd();
    const synthesis = stateOf(sim.investigation, {
      phase: "synthesis",
      offered: [...SYNTHESIS_TOOLS],
      forced: "finalize_report",
    });
    expect(names(offlineInvestigativeTurn(synthesis))).toEqual(["finalize_report"]);
    // Exploration would search; forced to notes_read, it reads the notes.
    const exploring = stateOf(expandedInvestigation(), { forced: "notes_read" });
    expect(offlineInvestigativeTurn(exploring).calls).toEqual([{ id: "call_1_1", name: "notes_read", args: {} }]);
  });

  it("uses only the tools offered: without challenge it resolves instead", () => {
    const investigation = withClaim();
    const offered = EXPLORATION_TOOLS.filter((name) => name !== "challenge");
    const turn = offlineInvestigativeTurn(stateOf(investigation, { offered }));
    expect(names(turn)).toEqual(["resolve_question"]);
  });

  it("never repeats a call the loop refused on the previous turn", () => {
    const investigation = expandedInvestigation();
    const first = offlineInvestigativeTurn(stateOf(investigation));
    expect(names(first)).toEqual(["search"]);
    const refused: LoopResult[] = first.calls.map((call) => ({
      callId: call.id,
      name: call.name,
      args: call.args,
      ok: false,
      text: "Refused: the query is not allowed.",
    }));
    const turn = offlineInvestigativeTurn(stateOf(investigation, { turn: 2, lastResults: refused }));
    expect(names(turn)).toEqual(["search"]);
    expect(argsOf(turn)).not.toEqual(argsOf(first));
  });

  it("is deterministic: the same state gives the same turn", () => {
    const sim = new Simulation(CORPUS);
    sim.runToEnd();
    expect(sim.turns.length).toBeGreaterThan(5);
    for (const { state, act } of sim.turns) {
      expect(offlineInvestigativeTurn(state)).toEqual(act);
      expect(offlineInvestigativeTurn(structuredClone(state))).toEqual(act);
    }
  });

  it("recognizes the loop's state and nothing else", () => {
    expect(isActState(stateOf(newInvestigation()))).toBe(true);
    expect(isActState(JSON.parse(JSON.stringify(stateOf(newInvestigation()))))).toBe(true);
    for (const value of [
      undefined,
      null,
      "state",
      {},
      { kind: "simple" },
      { ...stateOf(newInvestigation()), investigation: {} },
    ]) {
      expect(isActState(value)).toBe(false);
    }
    const { pendingPages: _, ...partial } = stateOf(newInvestigation());
    expect(isActState(partial)).toBe(false);
  });
});

describe("offline investigative rules in a simulated loop", () => {
  it.each([
    ["pages extracted in normal turns", 4_000],
    ["every page forced into an extraction turn", 0],
  ])("investigates a small corpus to a gated report with VERIFIED items (%s)", (_, extractionThreshold) => {
    const sim = new Simulation(CORPUS, { extractionThreshold });
    sim.runToEnd();
    const report = sim.report;
    if (!report) throw new Error(`no report after ${sim.turn} turns`);
    // Every call the engine made was offered and accepted.
    expect(sim.refused).toEqual([]);
    for (const { state, act } of sim.turns) {
      for (const call of act.calls) expect(state.offered).toContain(call.name);
    }
    if (extractionThreshold === 0) expect(sim.turns.some(({ state }) => state.mode.kind === "extraction")).toBe(true);
    expect(sim.turn).toBeLessThan(40);
    const verified = report.keyClaims.filter((entry) => entry.status === "VERIFIED").map((entry) => entry.claimId);
    expect(verified.length).toBeGreaterThanOrEqual(1);
    const ids = sim.investigation.ledger.sources.map((source) => source.id);
    expect(finalizationGate(sim.investigation, report, ids).passed).toBe(true);
    // A VERIFIED item shows two sources, and each states its claim's text.
    const item = report.items.find((entry) => verified.includes(entry.claimIds[0] ?? ""));
    expect(item?.sourceIds.length).toBeGreaterThanOrEqual(2);
    for (const sourceIdShown of item?.sourceIds ?? []) {
      const page = sim.fullPages.get(sourceIdShown);
      const text = page?.passages.map((passage) => passage.text).join(" ") ?? "";
      expect(englishJudge().judge(item?.text ?? "", { text: collapseWhitespace(text) }).verdict).toBe("supports");
    }
    // The frontier is done: every facet resolved or unresolvable; challenges all closed with distinct queries.
    const facets = sim.investigation.frontier.questions.filter((question) => question.parentId === ROOT_QUESTION_ID);
    expect(facets.every((question) => question.status === "resolved" || question.status === "unresolvable")).toBe(true);
    expect(sim.investigation.challenges.every((challenge) => challenge.status === "closed")).toBe(true);
    const queries = sim.investigation.challenges.map((challenge) => normalizeQuery(challenge.query));
    expect(new Set(queries).size).toBe(queries.length);
  });

  it("gives up on a facet the corpus does not cover and reports it as a gap", () => {
    const objective = "Who built the first prototype of the lithium-ion cell, and what did Exxon build?";
    const sim = new Simulation(CORPUS, {}, objective);
    sim.runToEnd();
    const report = sim.report;
    if (!report) throw new Error(`no report after ${sim.turn} turns`);
    expect(sim.refused).toEqual([]);
    const exxon = sim.investigation.frontier.questions.find((question) => focusOf(question.question) === "Exxon");
    expect(exxon?.status).toBe("unresolvable");
    expect(attemptCount(sim.investigation.frontier, exxon?.id ?? "")).toBeGreaterThanOrEqual(
      sim.investigation.config.maxAttempts,
    );
    expect(report.gaps.map((gap) => gap.questionIds)).toContainEqual([exxon?.id]);
  });
});
