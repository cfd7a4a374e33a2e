/**
 * The run envelope of one research: its clock, event log, budgets, diagnostics and the
 * acquisition deadline. Strategies reach the outside world only through this object and
 * the services built on it (acquisition, publication).
 */
import { englishJudge } from "../adapters/language/english-judge.js";
import { englishPhrasing } from "../adapters/language/english-phrasing.js";
import type { Phrasing } from "../core/answer/answer.js";
import {
  type BudgetKind,
  type BudgetUse,
  type CostSpent,
  costAllows,
  NO_USE,
  remaining,
  spend,
} from "../core/budgets.js";
import type { Judge } from "../core/judgment/judge.js";
import { researchText } from "../core/lineage/instruction.js";
import { isGeneration, usageOf } from "../core/usage.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { Clock } from "../ports/clock.js";
import type { Fetcher } from "../ports/fetcher.js";
import type { Model } from "../ports/model.js";
import type { NotesFiles } from "../ports/notes-store.js";
import type { SearchProvider } from "../ports/search-provider.js";
import type { RunEvent, RunRecord, RunRequest, SearchCallRecord, SourceRecord, Store } from "../ports/store.js";
import type { ParentContext } from "./lineage.js";
import { RunClock } from "./run-clock.js";

/** Called after each event is durably appended. */
export type EventListener = (event: RunEvent) => void;

const BUDGET_NAMES: Record<BudgetKind, (request: RunRequest) => string> = {
  generations: (request) => `limit of ${request.budgets.maxGenerations} model generations`,
  turns: (request) => `limit of ${request.budgets.maxTurns} model turns`,
  searchCalls: (request) => `limit of ${request.budgets.maxSearchCalls} searches`,
  fetchAttempts: (request) => `limit of ${request.budgets.maxFetchAttempts} document reads`,
  sources: (request) => `source limit of ${request.budgets.maxSources}`,
};

export interface RunHostOptions {
  run: RunRecord;
  store: Store;
  clock: Clock;
  search: SearchProvider;
  fetcher: Fetcher;
  artifacts: ArtifactStore;
  /** The model that plans and synthesizes; none means a source-backed report only. */
  model?: Model;
  listeners?: readonly EventListener[];
  /** Cancels the run from outside (Ctrl-C); acquisition stops and the Host publishes. */
  signal?: AbortSignal;
  /**
   * Hands the run back (a worker lost its lease): the run stops like a cancel, but nothing is
   * published and its status stays running, for the worker that holds it now to resume.
   */
  handBack?: AbortSignal;
  /**
   * Renews the run's lease now: true while this process still holds it (a false answer
   * aborts `handBack`). Asked before every publication, since an artifact write is not fenced
   * as a store write is.
   */
  confirmLease?: () => Promise<boolean>;
  /** The scope as opened describes itself (`OpenScope.label`): the boundary says it instead of the stored label. */
  scopeLabel?: string;
  /** The run this one continues (a follow-up, a revision), when it does. */
  parent?: ParentContext;
  /** Continue an interrupted run: state is reloaded from the store. */
  resumed?: { lastOffsetMs: number };
  /** Where investigative runs keep their notes.md working copies (`research_notes_dir`). */
  notes?: NotesFiles;
  /** Decides support, contradiction and absence for every strategy (default: the English judge). */
  judge?: Judge;
  /** Words what the report says of a part of the question it cannot answer (default: English). */
  phrasing?: Phrasing;
}

export class RunHost {
  readonly run: RunRecord;
  readonly request: RunRequest;
  readonly store: Store;
  readonly clock: RunClock;
  readonly search: SearchProvider;
  readonly fetcher: Fetcher;
  readonly artifacts: ArtifactStore;
  readonly model: Model | undefined;
  readonly notes: NotesFiles | undefined;
  /** The one judge of support, contradiction and absence (DESIGN "Identities and truth"). */
  readonly judge: Judge;
  readonly phrasing: Phrasing;
  /** The opened scope's own description, when it has one (see RunHostOptions.scopeLabel). */
  readonly scopeLabel: string | undefined;
  /** The run this one continues, with its report (a follow-up, a revision). */
  readonly parent: ParentContext | undefined;
  /**
   * What the run's findings answer: its question, or for a revision the report's question with
   * the topics its revisions add (`researchText`). Synthesis and packets use it; the report
   * shows the question as asked.
   */
  readonly question: string;
  /**
   * What its first search asks: the question; a follow-up's question in its parent's context; a
   * revision's added topics ('' when it adds none: it reads no new source).
   */
  readonly searchText: string;
  /** Aborted at the acquisition deadline (wall clock minus the publish reserve) or on cancel. */
  readonly signal: AbortSignal;
  readonly #listeners: EventListener[];
  readonly #deadline: AbortController;
  readonly #detach = new AbortController();
  readonly #handBack: AbortSignal | undefined;
  readonly #confirmLease: (() => Promise<boolean>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #use: BudgetUse = { ...NO_USE };
  #reservedSources = 0;
  #sources: SourceRecord[] = [];
  #searchCalls: SearchCallRecord[] = [];
  #exhausted = new Set<BudgetKind | "cost">();
  #cost: CostSpent = { usd: 0, unknown: false };
  #slotWaiters: (() => void)[] = [];
  #failedAnchors = new Set<string>();

  private constructor(options: RunHostOptions, clock: RunClock) {
    this.run = options.run;
    this.request = options.run.request;
    this.store = options.store;
    this.clock = clock;
    this.search = options.search;
    this.fetcher = options.fetcher;
    this.artifacts = options.artifacts;
    this.model = options.model;
    this.notes = options.notes;
    this.judge = options.judge ?? englishJudge();
    this.phrasing = options.phrasing ?? englishPhrasing();
    this.scopeLabel = options.scopeLabel;
    this.parent = options.parent;
    const lineage = this.request.lineage;
    const research =
      lineage && options.parent
        ? researchText(this.request.question, lineage, {
            parentQuestion: options.parent.run.request.question,
            revisions: options.parent.revisions,
          })
        : { question: this.request.question, search: this.request.question };
    this.question = research.question;
    this.searchText = research.search;
    this.#listeners = [...(options.listeners ?? [])];
    this.#deadline = new AbortController();
    this.#handBack = options.handBack;
    this.#confirmLease = options.confirmLease;
    const outer = [options.signal, options.handBack].filter((signal) => signal !== undefined);
    this.signal = outer.length > 0 ? AbortSignal.any([this.#deadline.signal, ...outer]) : this.#deadline.signal;
    // Detached when the run ends: a signal shared by many runs (an evaluation) must not mark finished runs cancelled.
    options.signal?.addEventListener("abort", () => void this.emit("run-cancelled", {}), {
      once: true,
      signal: this.#detach.signal,
    });
  }

  /**
   * The envelope of a new run (`run` just created with `clock`'s origin) or of a resumed
   * one (state reloaded from the store). Arms the acquisition deadline.
   */
  static async open(options: RunHostOptions, clock?: RunClock): Promise<RunHost> {
    const runClock =
      clock ?? RunClock.resume(options.clock, Date.parse(options.run.originAt), options.resumed?.lastOffsetMs ?? 0);
    const host = new RunHost(options, runClock);
    await host.#reload();
    host.#armDeadline();
    return host;
  }

  async #reload(): Promise<void> {
    const runId = this.run.id;
    this.#sources = await this.store.listSources(runId);
    const carried = this.#sources.filter((source) => source.reused === "parent").length;
    this.#searchCalls = await this.store.listSearchCalls(runId);
    const events = await this.store.listEvents(runId);
    const count = (type: string): number => events.filter((event) => event.type === type).length;
    const generations = events.filter(isGeneration);
    const turns = generations.filter((event) => event.data.purpose === "turn").length;
    this.#use = {
      generations: generations.length - turns,
      turns,
      searchCalls: this.#searchCalls.length,
      // Reads of the library are not fetches; sources carried over from the parent were not read here.
      fetchAttempts:
        count("source-fetched") + events.filter((event) => event.type === "fetch-failed" && !event.data.library).length,
      sources: this.#sources.length - carried,
    };
    const usage = usageOf(events);
    this.#cost = { usd: usage.knownCostUsd, unknown: usage.unpriced > 0 };
    for (const event of events) {
      const failed = event.type === "fetch-failed" || event.type === "persist-failed";
      if (failed && typeof event.data.anchor === "string") this.#failedAnchors.add(event.data.anchor);
    }
  }

  #armDeadline(): void {
    const { wallClockMs, publishReserveMs } = this.request.budgets;
    const left = wallClockMs - publishReserveMs - this.clock.offset();
    const fire = (): void => {
      if (this.#deadline.signal.aborted) return;
      this.#deadline.abort(new Error("the acquisition deadline was reached"));
      void this.emit("deadline-reached", { wallClockMs, publishReserveMs });
    };
    if (left <= 0) fire();
    else {
      this.#timer = setTimeout(fire, left);
      this.#timer.unref();
    }
  }

  /** The run was handed back (`handBack` aborted): it must not publish or finish. */
  get handedBack(): boolean {
    return this.#handBack?.aborted === true;
  }

  /** Whether the run may still publish: not handed back, and its lease (if any) renewed right now. */
  async holdsLease(): Promise<boolean> {
    if (this.handedBack) return false;
    if (this.#confirmLease && !(await this.#confirmLease())) return false;
    return !this.handedBack;
  }

  /** Stops the deadline timer and detaches from the outer signal; call when the run ends. */
  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#detach.abort();
  }

  onEvent(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  /** Appends an event with its offset from the run origin, then tells the listeners. */
  async emit(type: string, data: Record<string, unknown> = {}): Promise<RunEvent> {
    const event = await this.store.appendEvent(this.run.id, {
      type,
      offsetMs: this.clock.offset(),
      at: this.clock.wallIso(),
      data,
    });
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  /** Records an internal diagnostic (never reader-facing). */
  async diagnose(stage: string, code: string, message: string, data: Record<string, unknown> = {}): Promise<void> {
    await this.store.addDiagnostic(this.run.id, { stage, code, message, offsetMs: this.clock.offset(), data });
  }

  /** Remaining units of a budget; persisted-source slots being fetched count as used. */
  remaining(kind: BudgetKind): number {
    const reserved = kind === "sources" ? this.#reservedSources : 0;
    return Math.max(0, remaining(this.request.budgets, this.#use, kind) - reserved);
  }

  /** Spends one unit, or records (once) that the budget stopped work and returns false. */
  async trySpend(kind: BudgetKind): Promise<boolean> {
    const spent = spend(this.request.budgets, this.#use, kind);
    if (spent.ok) {
      this.#use = spent.value;
      return true;
    }
    await this.#exhaust(kind);
    return false;
  }

  async #exhaust(
    kind: BudgetKind | "cost",
    limit = kind === "cost" ? "" : BUDGET_NAMES[kind](this.request),
  ): Promise<void> {
    if (this.#exhausted.has(kind)) return;
    this.#exhausted.add(kind);
    await this.emit("budget-exhausted", { budget: kind, limit });
  }

  /**
   * Whether the cost budget (`maxCostUsd`) lets another generation start; when it does not,
   * a budget event says why (spent, or a cost that was not known), once.
   */
  async costAllows(): Promise<boolean> {
    // A model without any price cannot be held to a cost limit: not even its first call starts.
    if (
      this.request.budgets.maxCostUsd !== undefined &&
      this.model !== undefined &&
      this.model.cost?.({ inputTokens: 1, outputTokens: 1 }) === undefined
    )
      this.#cost = { ...this.#cost, unknown: true };
    const allowed = costAllows(this.request.budgets, this.#cost);
    if (allowed.ok) return true;
    await this.#exhaust("cost", allowed.error);
    return false;
  }

  /** Adds a generation's cost (undefined: not known) to the run's spend. */
  spendCost(costUsd: number | undefined, tokens: number): void {
    if (costUsd !== undefined) this.#cost = { ...this.#cost, usd: this.#cost.usd + costUsd };
    else if (tokens > 0) this.#cost = { ...this.#cost, unknown: true };
  }

  /**
   * Reserves a persisted-source slot before a fetch. While every free slot is held by a
   * fetch in flight, waits for one to finish (it may fail and free its slot); false (and a
   * budget event) only when the budget is really spent.
   */
  async reserveSource(): Promise<boolean> {
    for (;;) {
      if (this.remaining("sources") > 0) {
        this.#reservedSources++;
        return true;
      }
      if (this.#reservedSources === 0) {
        await this.#exhaust("sources");
        return false;
      }
      await new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
    }
  }

  /** Releases a reserved slot; `persisted` turns it into a used one. */
  releaseSource(persisted: boolean): void {
    this.#reservedSources--;
    if (persisted) this.#use = { ...this.#use, sources: this.#use.sources + 1 };
    for (const wake of this.#slotWaiters.splice(0)) wake();
  }

  /** True when an earlier attempt to read `anchor` failed in this run (it is not read again). */
  hasFailed(anchor: string): boolean {
    return this.#failedAnchors.has(anchor);
  }

  markFailed(anchor: string): void {
    this.#failedAnchors.add(anchor);
  }

  /**
   * The closed catalog of this run's report: persisted sources only, in persistence order. A
   * follow-up's sources carried over from its parent are in it once a search of the follow-up
   * reached them; a revision's all are (it is the next version of the same report).
   */
  sources(): readonly SourceRecord[] {
    if (!this.request.lineage) return this.#sources;
    const revision = this.request.lineage.relation === "revision";
    return this.#sources.filter((source) => revision || source.reused !== "parent" || source.provenance.length > 0);
  }

  /** Every persisted source of the run, those carried over from its parent included: what need not be read again. */
  known(): readonly SourceRecord[] {
    return this.#sources;
  }

  /** Units of a budget spent so far (sources: persisted by this run's own reads, not carried over). */
  used(kind: BudgetKind): number {
    return this.#use[kind];
  }

  searchCalls(): readonly SearchCallRecord[] {
    return this.#searchCalls;
  }

  /** Makes a committed source visible. Only acquisition calls this, after the commit. */
  expose(source: SourceRecord): void {
    const index = this.#sources.findIndex((known) => known.id === source.id);
    if (index < 0) this.#sources.push(source);
    else this.#sources[index] = source;
  }

  recordSearch(call: SearchCallRecord): void {
    this.#searchCalls.push(call);
  }

  async stage(name: string): Promise<void> {
    await this.emit("stage-changed", { stage: name });
  }
}
