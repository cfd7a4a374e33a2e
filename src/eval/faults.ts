/**
 * Deterministic faults as named switches (seed 004 "Required Evaluation"), injected at the
 * ports so the runtime under test is the real one, and the degradation each one must show
 * (seed 004 "Budgets And Terminal Behavior"), checked from what the run left behind.
 */
import { UserError } from "../core/errors.js";
import type { ReportDocument } from "../core/report/report-document.js";
import type { OpenScope, ScopeOpener } from "../ports/evidence-scope.js";
import type { Fetcher } from "../ports/fetcher.js";
import type { ActTurn, AgentTurn, CallOptions, Generation, Model } from "../ports/model.js";
import type { SearchProvider } from "../ports/search-provider.js";
import type { RunEvent, SourceRecord } from "../ports/store.js";
import type { FaultCheck } from "./eval-types.js";

export type Fault =
  | { kind: "planner-failure" }
  | { kind: "synthesis-failure" }
  | { kind: "model-timeout" }
  | { kind: "search-failure"; nth?: number }
  | { kind: "fetch-failure"; nth: number }
  | { kind: "crash-after-persisted"; after: number };

/** The switches `--faults all` runs, in this order. */
export const STANDARD_FAULTS = [
  "planner-failure",
  "synthesis-failure",
  "model-timeout",
  "search-failure",
  "fetch-failure:1",
  "crash-after-persisted:2",
] as const;

export const FAULT_HELP =
  "planner-failure, synthesis-failure, model-timeout, search-failure[:N], fetch-failure:N, crash-after-persisted:K, or all";

/** Parses one switch. Throws UserError naming the known switches. */
export function parseFault(name: string): Fault {
  const text = name.trim();
  if (text === "planner-failure" || text === "synthesis-failure" || text === "model-timeout") return { kind: text };
  if (text === "search-failure") return { kind: "search-failure" };
  const numbered = /^(search-failure|fetch-failure|crash-after-persisted):([1-9]\d{0,3})$/.exec(text);
  if (numbered?.[1] && numbered[2]) {
    const n = Number(numbered[2]);
    if (numbered[1] === "search-failure") return { kind: "search-failure", nth: n };
    if (numbered[1] === "fetch-failure") return { kind: "fetch-failure", nth: n };
    return { kind: "crash-after-persisted", after: n };
  }
  throw new UserError(`unknown fault "${text}" (known: ${FAULT_HELP})`);
}

/** `a,b,all` → the distinct switches, in order; "none" or empty → none. */
export function parseFaultList(list: string): string[] {
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && name !== "none")
    .flatMap((name) => (name === "all" ? [...STANDARD_FAULTS] : [name]));
  for (const name of names) parseFault(name);
  return [...new Set(names)];
}

const injected = <T>(kind: "transport" | "timeout", what: string): Generation<T> => ({
  ok: false,
  kind,
  error: `injected fault: ${what}`,
  usage: { inputTokens: 0, outputTokens: 0 },
  attempts: 1,
});

/** Never answers; ends only when the caller gives up (its signal aborts). */
const hang = <T>(options: CallOptions): Promise<Generation<T>> =>
  new Promise((resolve) => {
    const done = (): void => resolve(injected("timeout", "the model did not answer"));
    if (options.signal?.aborted) done();
    else options.signal?.addEventListener("abort", done, { once: true });
  });

const proposesSearch = (turn: AgentTurn): boolean =>
  turn.kind === "tools" && turn.calls.some((call) => call.tool === "search");

/** The investigative loop's query tool and its completion tool (core/investigative/loop-tools.ts). */
const LOOP_SEARCH_TOOL = "search";
const LOOP_ANSWER_TOOL = "finalize_report";

const callsTool = (turn: ActTurn, tool: string): boolean => turn.calls.some((call) => call.name === tool);

/**
 * `act` (the investigative loop's turn) with a planner or synthesis failure: the turn fails
 * when it proposes a query (calls `search`) or answers (calls `finalize_report`). Absent
 * when the model has no `act`, as a model that cannot drive that loop.
 */
function faultyAct(model: Model, planner: boolean): Pick<Model, "act"> {
  const act = model.act?.bind(model);
  if (!act) return {};
  return {
    act: async (input, options) => {
      const turn = await act(input, options);
      if (!turn.ok) return turn;
      const failing = callsTool(turn.value, planner ? LOOP_SEARCH_TOOL : LOOP_ANSWER_TOOL);
      return failing
        ? { ...injected<ActTurn>("transport", planner ? "planner failure" : "synthesis failure"), usage: turn.usage }
        : turn;
    },
  };
}

/**
 * The model with the fault applied, the same for every strategy. Planner failure: every
 * query-proposing call fails (the pipeline's planner; a loop turn that calls search, in the
 * simple loop's `step` and the investigative loop's `act`). Synthesis failure: every
 * answering call fails (the pipeline's synthesis; a simple loop turn that answers; an
 * investigative turn that calls finalize_report). Model timeout: every call hangs until the
 * Host cuts it off at its limit.
 */
export function faultyModel(model: Model, fault: Fault): Model {
  if (fault.kind === "model-timeout") {
    return {
      name: model.name,
      kind: model.kind,
      ...(model.cost ? { cost: model.cost.bind(model) } : {}),
      plan: (_input, options) => hang(options),
      synthesize: (_input, options) => hang(options),
      step: (_input, options) => hang(options),
      ...(model.act ? { act: (_input, options) => hang<ActTurn>(options) } : {}),
    };
  }
  if (fault.kind !== "planner-failure" && fault.kind !== "synthesis-failure") return model;
  const planner = fault.kind === "planner-failure";
  return {
    ...faultyAct(model, planner),
    name: model.name,
    kind: model.kind,
    ...(model.cost ? { cost: model.cost.bind(model) } : {}),
    plan: async (input, options) => (planner ? injected("transport", "planner failure") : model.plan(input, options)),
    synthesize: async (input, options) =>
      planner ? model.synthesize(input, options) : injected("transport", "synthesis failure"),
    step: async (input, options) => {
      const turn = await model.step(input, options);
      if (!turn.ok) return turn;
      const failing = planner ? proposesSearch(turn.value) : turn.value.kind === "answer";
      return failing
        ? { ...injected<AgentTurn>("transport", planner ? "planner failure" : "synthesis failure"), usage: turn.usage }
        : turn;
    },
  };
}

/** What a fault did during a run, for its checks. */
export interface FaultLog {
  /** The anchor whose read was failed (fetch-failure). */
  failedAnchor?: string;
  searchesFailed: number;
}

function faultySearch(search: SearchProvider, fault: Fault, log: FaultLog): SearchProvider {
  if (fault.kind !== "search-failure") return search;
  let calls = 0;
  return {
    name: search.name,
    checkQuery: (query) => search.checkQuery(query),
    search: async (query, options) => {
      calls += 1;
      if (fault.nth === undefined || fault.nth === calls) {
        log.searchesFailed += 1;
        throw new Error("injected fault: the search provider failed");
      }
      return search.search(query, options);
    },
  };
}

function faultyFetcher(fetcher: Fetcher, fault: Fault, log: FaultLog): Fetcher {
  if (fault.kind !== "fetch-failure") return fetcher;
  let calls = 0;
  return {
    ...fetcher,
    fetch: async (anchor, options) => {
      calls += 1;
      if (calls === fault.nth) {
        log.failedAnchor = anchor;
        throw new Error(`injected fault: reading source number ${fault.nth} failed`);
      }
      return fetcher.fetch(anchor, options);
    },
  };
}

/** The scope opener with the fault applied to the search provider and the fetcher it opens. */
export function faultyScopes(scopes: ScopeOpener, fault: Fault, log: FaultLog): ScopeOpener {
  return {
    async open(scope, context): Promise<OpenScope> {
      const opened = await scopes.open(scope, context);
      return {
        ...opened,
        search: faultySearch(opened.search, fault, log),
        fetcher: faultyFetcher(opened.fetcher, fault, log),
      };
    },
  };
}

/** What a run left behind, as its fault checks read it. */
export interface RunFacts {
  status: string;
  doc: ReportDocument | undefined;
  events: readonly RunEvent[];
  sources: readonly SourceRecord[];
  wallClockMs: number;
  log: FaultLog;
  /** crash-after-persisted: the process's end and what was persisted before the resume. */
  crash?: { killed: boolean; detail: string; persistedBefore: readonly string[] };
}

const check = (name: string, passed: boolean, detail: string): FaultCheck => ({ name, passed, detail });

function common(facts: RunFacts): FaultCheck[] {
  const terminal = facts.events.findLast((event) => event.type === "run-finished")?.offsetMs;
  return [
    check("run finished", facts.status === "finished", `status ${facts.status}`),
    check("report published", facts.doc !== undefined, facts.doc ? `published ${facts.doc.status}` : "no report.json"),
    check(
      "ended within the wall clock",
      terminal !== undefined && terminal <= facts.wallClockMs,
      terminal === undefined ? "no run-finished event" : `${Math.round(terminal)} ms of ${facts.wallClockMs} ms`,
    ),
  ];
}

const failedGenerations = (facts: RunFacts) => facts.events.filter((event) => event.type === "generation-failed");
const hasItems = (doc: ReportDocument | undefined): boolean =>
  doc !== undefined && doc.directFindings.length + doc.findings.length + doc.recommendations.length > 0;

/** The checks of `fault`'s expected degradation. */
export function faultChecks(fault: Fault, facts: RunFacts): FaultCheck[] {
  const checks = common(facts);
  const persisted = facts.sources.length;
  const doc = facts.doc;
  switch (fault.kind) {
    case "planner-failure":
      checks.push(
        check(
          "failure recorded",
          failedGenerations(facts).length > 0,
          `${failedGenerations(facts).length} failed generations`,
        ),
        check("sources persisted despite the planner failure", persisted > 0, `${persisted} sources persisted`),
        check(
          "source-backed or better artifact",
          doc !== undefined && doc.status !== "no-evidence",
          doc ? doc.status : "nothing published",
        ),
      );
      break;
    case "synthesis-failure":
      checks.push(
        check(
          "failure recorded",
          failedGenerations(facts).length > 0,
          `${failedGenerations(facts).length} failed generations`,
        ),
        check(
          "preliminary artifact retained",
          doc?.status === "source-backed" && doc.sourceCards.length > 0,
          doc ? `${doc.status} with ${doc.sourceCards.length} source cards` : "nothing published",
        ),
        check(
          "no unadmitted findings",
          !hasItems(doc),
          doc ? `${doc.directFindings.length + doc.findings.length} findings` : "—",
        ),
      );
      break;
    case "model-timeout": {
      const failed = failedGenerations(facts);
      checks.push(
        check(
          "every model call cut off at its limit",
          failed.length > 0 &&
            failed.every((event) => event.data.kind === "timeout" || event.data.kind === "cancelled"),
          `${failed.length} calls ended: ${[...new Set(failed.map((event) => String(event.data.kind)))].join(", ") || "none"}`,
        ),
        check(
          "source-backed or better artifact",
          doc !== undefined && doc.status !== "no-evidence",
          doc ? doc.status : "nothing published",
        ),
      );
      break;
    }
    case "search-failure": {
      const recorded = facts.events.filter((event) => event.type === "search-failed").length;
      checks.push(
        check(
          "failure recorded",
          recorded > 0 && recorded >= facts.log.searchesFailed,
          `${recorded} search-failed events`,
        ),
        check(
          "nothing made up without sources",
          persisted > 0 || (doc?.status === "no-evidence" && !hasItems(doc)),
          persisted > 0 ? `${persisted} sources from other searches` : doc ? `${doc.status}` : "nothing published",
        ),
      );
      break;
    }
    case "fetch-failure": {
      const anchor = facts.log.failedAnchor;
      const kept = anchor !== undefined && facts.sources.some((source) => source.requestedAnchor === anchor);
      const cited =
        anchor !== undefined && (doc?.sources ?? []).some((source) => source.path === anchor || source.url === anchor);
      checks.push(
        check(
          "the fault fired",
          anchor !== undefined,
          anchor ? `read of ${anchor} failed` : `fewer than ${fault.nth} reads`,
        ),
        check(
          "failed source neither persisted nor cited",
          !kept && !cited,
          kept || cited ? `${anchor} is in the run` : "absent",
        ),
        check(
          "failure recorded",
          facts.events.some((event) => event.type === "fetch-failed"),
          `${facts.events.filter((event) => event.type === "fetch-failed").length} fetch-failed events`,
        ),
        check("other sources persisted", persisted > 0, `${persisted} sources persisted`),
      );
      break;
    }
    case "crash-after-persisted": {
      const crash = facts.crash;
      const ids = facts.sources.map((source) => source.id);
      const anchors = facts.sources.map((source) => source.canonicalAnchor);
      const persistedEvents = facts.events.filter((event) => event.type === "source-persisted").length;
      const before = crash?.persistedBefore ?? [];
      checks.push(
        check("the process was killed", crash?.killed === true, crash?.detail ?? "no crash recorded"),
        check(
          `at least ${fault.after} sources persisted before the crash`,
          before.length >= fault.after,
          `${before.length} persisted before the resume`,
        ),
        check(
          "each persisted source recovered exactly once",
          new Set(ids).size === ids.length &&
            new Set(anchors).size === anchors.length &&
            persistedEvents === ids.length,
          `${ids.length} sources, ${new Set(anchors).size} distinct, ${persistedEvents} persisted events`,
        ),
        check(
          "sources persisted before the crash kept",
          before.every((id) => ids.includes(id)),
          `${before.filter((id) => ids.includes(id)).length} of ${before.length} kept`,
        ),
        check(
          "resumed",
          facts.events.some((event) => event.type === "run-resumed"),
          facts.events.some((event) => event.type === "run-resumed") ? "run-resumed recorded" : "no run-resumed event",
        ),
      );
      break;
    }
  }
  return checks;
}
