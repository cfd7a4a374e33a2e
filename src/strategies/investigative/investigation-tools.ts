/**
 * The effect layer of the investigative tools (seed 000 "Constraints": reads and writes at
 * the edge). Each call loads the run's investigation from the store, lets the pure core
 * decide (`decide`), writes the decision's rows in one store transaction (a status change
 * and its transition, the claim rows and the notes version together), then replaces the
 * notes.md working copy (temp file + rename). A decision computed from stale state (another
 * writer took the next id or seq) is decided again on fresh state. With `max_parallel > 1` the
 * sub-agents of a run share one investigation: each calls through its own `forAgent` view
 * (its claimed question is its current one), and the calls of all views are serialized, so
 * notes appends never interleave. Writers in other processes are serialized by the store (one
 * transaction per change, under the run's lock) and detected by the id and seq checks: a claim
 * (`pending → in_progress`) decided on a stale frontier is refused and decided again.
 */
import { type AttemptLogged, type AttemptLogInput, logAttempt } from "../../core/investigative/attempt-log.js";
import { createFrontier, isDeclaredAtomic } from "../../core/investigative/frontier.js";
import { notesFileName, parseNotes } from "../../core/investigative/notes.js";
import { claimStatement } from "../../core/investigative/report-mapping.js";
import { TOOL_DESCRIPTIONS, TOOL_SCHEMAS, type ToolName } from "../../core/investigative/tool-schemas.js";
import { decide, notesText } from "../../core/investigative/tools.js";
import {
  type Claim,
  type ClaimSource,
  DEFAULT_INVESTIGATION_CONFIG,
  EMPTY_MUTATION,
  type Investigation,
  type InvestigationConfig,
  type LedgerOrigins,
  type Mutation,
} from "../../core/investigative/types.js";
import type { Judge } from "../../core/judgment/judge.js";
import { type OriginSource, originsOf, statementOrigin } from "../../core/judgment/origins.js";
import { IdConflictError, type InvestigationStore } from "../../ports/investigation-store.js";
import type { NotesFiles } from "../../ports/notes-store.js";
import { ownerOf, type Store } from "../../ports/store.js";
import { ensureWorkingCopy, newNotesId } from "./notes-working-copy.js";

export interface InvestigationToolsOptions {
  store: Store & InvestigationStore;
  notes: NotesFiles;
  runId: number;
  config?: InvestigationConfig;
  /** Wall-clock time as ISO text (the Host's clock). */
  now: () => string;
  /** The research state the next change belongs to (seed 000 `state_seq`). */
  stateSeq?: () => number;
  /** node:crypto's randomBytes, for a new run's notes id. */
  randomBytes: (size: number) => Uint8Array;
  /** The sub-agent these tools act for (1 … max_parallel; default 1). */
  agent?: number;
  /**
   * The ids of the sources in the run's catalog (`RunHost.sources()`): the ledger's sources. A
   * follow-up's sources carried over from its parent are in it once a search reached them, so
   * until then they are neither cited nor taken as already read. Default: every stored source.
   */
  catalog?: () => ReadonlySet<string>;
  /** Reads who a supporting statement is attributed to (origins by statement); without one, origins are by source only. */
  judge?: Judge;
}

/**
 * Times a change decided on stale state is decided again before the conflict is an error. Each
 * conflict means another writer's change landed, so the run progresses; the pause (random, a
 * little longer each time) keeps writers in several processes that race for the same question
 * from colliding again in step.
 */
const CONFLICT_RETRIES = 30;
const conflictPause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * Math.min(attempt + 1, 10)));

/** One queue of calls shared by the views of a run's sub-agents. */
class CallQueue {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work, work);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

export type ToolReply = { ok: true; text: string } | { ok: false; rule: string; text: string };

/** A tool as a model is offered it. */
export interface ToolDefinition {
  name: ToolName;
  description: string;
  schema: (typeof TOOL_SCHEMAS)[ToolName];
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = (Object.keys(TOOL_SCHEMAS) as ToolName[]).map((name) => ({
  name,
  description: TOOL_DESCRIPTIONS[name],
  schema: TOOL_SCHEMAS[name],
}));

export class InvestigationTools {
  readonly #options: InvestigationToolsOptions;
  readonly #config: InvestigationConfig;
  readonly #fileName: string;
  readonly #queue: CallQueue;
  /** Origins derived from the sources' texts, by the ids they were computed for (texts never change once persisted). */
  #sourceOrigins: { ids: string; origins: Map<string, string>; sources: OriginSource[] } | undefined;
  readonly #linkOrigins = new Map<string, string | undefined>();

  private constructor(options: InvestigationToolsOptions, fileName: string, queue = new CallQueue()) {
    this.#options = options;
    this.#config = options.config ?? DEFAULT_INVESTIGATION_CONFIG;
    this.#fileName = fileName;
    this.#queue = queue;
  }

  /** The sub-agent these tools act for. */
  get agent(): number {
    return this.#options.agent ?? 1;
  }

  /** The same run's tools acting for sub-agent `agent`; calls of every view run one at a time. */
  forAgent(agent: number): InvestigationTools {
    return new InvestigationTools({ ...this.#options, agent }, this.#fileName, this.#queue);
  }

  /**
   * The tools of run `runId`: gives a new run its notes id and its root question (the
   * objective), and restores a missing notes working copy from the latest version.
   */
  static async open(options: InvestigationToolsOptions): Promise<InvestigationTools> {
    const run = await options.store.getRun(options.runId);
    if (!run) throw new Error(`there is no run ${options.runId}`);
    let notesId = run.notesId ?? "";
    if (notesId === "") {
      notesId = newNotesId(options.randomBytes);
      await options.store.updateRun(run.id, { notesId });
    }
    const name = notesFileName(ownerOf(run), run.id, notesId);
    if (!name.ok) throw new Error(name.error);
    const tools = new InvestigationTools(options, name.value);
    const stored = await options.store.loadInvestigation(run.id);
    if (stored.questions.length === 0) {
      const created = createFrontier(run.request.question, {
        now: options.now(),
        actor: "code",
        stateSeq: tools.#stateSeq(),
      });
      if (!created.ok) throw new Error(created.error.message);
      const investigation = await tools.load();
      const mutation: Mutation = {
        ...created.value.mutation,
        notes: { text: notesText({ ...investigation, frontier: created.value.frontier }), reason: "frontier" },
      };
      try {
        await tools.#write(mutation);
      } catch (error) {
        // Another process opened the same new run first and created its root: use theirs.
        if (!(error instanceof IdConflictError)) throw error;
      }
    }
    await tools.restoreNotes();
    return tools;
  }

  /** The notes.md working copy's file name (`notes_<user>_<run>_<notes id>.md`). */
  get notesFile(): string {
    return this.#fileName;
  }

  #stateSeq(): number {
    return this.#options.stateSeq?.() ?? 0;
  }

  #inCatalog<T extends { id: string }>(sources: readonly T[]): T[] {
    const catalog = this.#options.catalog?.();
    return catalog ? sources.filter((source) => catalog.has(source.id)) : [...sources];
  }

  /** The run's investigation as the core sees it, from the store. */
  async load(): Promise<Investigation> {
    const { store, runId } = this.#options;
    const stored = await store.loadInvestigation(runId);
    const run = await store.getRun(runId);
    return {
      runId,
      config: this.#config,
      frontier: {
        objective: run?.request.question ?? "",
        questions: stored.questions,
        dependencies: stored.dependencies,
        attempts: stored.attempts,
        transitions: stored.transitions,
        rootAtomic: isDeclaredAtomic(stored.questions),
      },
      ledger: {
        sources: this.#inCatalog(stored.sources),
        claims: stored.claims,
        claimSources: stored.claimSources,
        contradictions: stored.contradictions,
        origins: await this.#origins(stored.claims, stored.claimSources),
      },
      challenges: stored.challenges,
      // Scratch is free text kept only in notes.md: its history is the notes versions.
      scratch: stored.latestNotes ? parseNotes(stored.latestNotes.text).scratch : "",
      stateSeq: this.#stateSeq(),
      agent: this.agent,
    };
  }

  /**
   * The working copy, restored from the latest version (with a `restore` version row) when
   * it is missing — or stale, after a crash between the version's commit and the file write.
   */
  async restoreNotes(): Promise<string> {
    const stored = await this.#options.store.loadInvestigation(this.#options.runId);
    const latest = stored.latestNotes;
    const copy = await ensureWorkingCopy(this.#options.notes, this.#fileName, latest);
    if (!copy || !latest) return copy?.text ?? "";
    if (!copy.restored && copy.text === latest.text) return copy.text;
    if (!copy.restored) await this.#options.notes.write(this.#fileName, latest.text);
    await this.#options.store.applyMutation(
      this.#options.runId,
      { ...EMPTY_MUTATION, notes: { text: latest.text, reason: "restore" } },
      { stateSeq: this.#stateSeq() },
    );
    return latest.text;
  }

  /**
   * Runs one tool call: decide on the stored state, persist, and return what the model reads.
   * `actor: "code"` records the loop's own calls (its selection) as made by code.
   */
  call(name: string, args: unknown, options: { actor?: "agent" | "code" } = {}): Promise<ToolReply> {
    return this.#queue.run(() => this.#call(name, args, options));
  }

  async #call(name: string, args: unknown, options: { actor?: "agent" | "code" }): Promise<ToolReply> {
    for (let attempt = 0; ; attempt++) {
      const investigation = await this.load();
      const hostSources = investigation.ledger.sources;
      const hostChunks = await this.#hostChunks();
      const decision = decide(
        investigation,
        { name, args },
        { now: this.#options.now(), hostSources, hostChunks, actor: options.actor ?? "agent" },
      );
      if (!decision.ok)
        return {
          ok: false,
          rule: decision.error.rule,
          text: `Refused (${decision.error.rule}): ${decision.error.message}`,
        };
      try {
        await this.#write(decision.value.mutation);
      } catch (error) {
        // Another writer took the next id between load and write: decide again on fresh state.
        if (error instanceof IdConflictError && attempt < CONFLICT_RETRIES) {
          await conflictPause(attempt);
          continue;
        }
        throw error;
      }
      return { ok: true, text: decision.value.text };
    }
  }

  /**
   * Logs one `search` or `fetch_page` of the loop in the attempt log (and attaches a search to
   * the open challenge whose query it ran). Undefined when the log refused it (an empty query).
   */
  logAttempt(input: AttemptLogInput): Promise<AttemptLogged | undefined> {
    return this.#queue.run(() => this.#logAttempt(input));
  }

  async #logAttempt(input: AttemptLogInput): Promise<AttemptLogged | undefined> {
    for (let attempt = 0; ; attempt++) {
      const logged = logAttempt(await this.load(), input, this.#options.now());
      if (!logged.ok) return undefined;
      try {
        await this.#write(logged.value.mutation);
      } catch (error) {
        if (error instanceof IdConflictError && attempt < CONFLICT_RETRIES) {
          await conflictPause(attempt);
          continue;
        }
        throw error;
      }
      return logged.value;
    }
  }

  /**
   * Who each source and each supporting statement comes from (`originsOf`, `statementOrigin`):
   * derived from the persisted texts, recomputed only when a source is added.
   */
  async #origins(claims: readonly Claim[], links: readonly ClaimSource[]): Promise<LedgerOrigins> {
    const persisted = await this.#options.store.listSources(this.#options.runId);
    const ids = persisted.map((source) => source.id).join(" ");
    if (this.#sourceOrigins?.ids !== ids) {
      const sources: OriginSource[] = persisted.map((source) => ({
        id: source.id,
        domain: source.domain,
        location: source.path ?? source.url ?? source.canonicalAnchor,
        title: source.title,
        text: source.chunks.map((chunk) => chunk.text).join("\n"),
      }));
      this.#sourceOrigins = { ids, origins: originsOf(sources), sources };
    }
    const { origins, sources } = this.#sourceOrigins;
    const byLink: Record<string, string> = {};
    const judge = this.#options.judge;
    if (judge) {
      const chunkText = new Map(
        persisted.flatMap((source) => source.chunks.map((chunk) => [chunk.id, chunk.text] as const)),
      );
      for (const link of links) {
        if (link.stance !== "supports" || link.chunkIds.length === 0) continue;
        const claim = claims.find((known) => known.id === link.claimId);
        if (!claim) continue;
        const key = `${link.claimId} ${link.sourceId} ${link.chunkIds.join(",")} ${claim.text}`;
        if (!this.#linkOrigins.has(key)) {
          const text = link.chunkIds.map((id) => chunkText.get(id) ?? "").join("\n");
          this.#linkOrigins.set(key, judge.judge(claimStatement(claim), { text }).attribution);
        }
        const attribution = this.#linkOrigins.get(key);
        if (attribution)
          byLink[`${link.claimId} ${link.sourceId}`] = statementOrigin(link.sourceId, attribution, sources, origins);
      }
    }
    return { bySource: Object.fromEntries(origins), byLink };
  }

  /** The Host's chunk catalog of the run: each persisted source id → its passage ids. */
  async #hostChunks(): Promise<Map<string, string[]>> {
    const sources = await this.#options.store.listSources(this.#options.runId);
    return new Map(sources.map((source) => [source.id, source.chunks.map((chunk) => chunk.id)]));
  }

  async #write(mutation: Mutation): Promise<void> {
    const empty =
      mutation.questions.length +
        mutation.dependencies.length +
        mutation.attempts.length +
        mutation.transitions.length +
        mutation.sources.length +
        mutation.claims.length +
        mutation.claimSources.length +
        mutation.contradictions.length +
        mutation.challenges.length ===
        0 && mutation.notes === undefined;
    if (empty) return;
    await this.#options.store.applyMutation(this.#options.runId, mutation, { stateSeq: this.#stateSeq() });
    // The version row is committed: the file follows (a crash here is repaired by restoreNotes).
    if (mutation.notes) await this.#options.notes.write(this.#fileName, mutation.notes.text);
  }
}
