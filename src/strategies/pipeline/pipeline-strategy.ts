/**
 * The pipeline strategy (seed 004): bootstrap search with the complete request and the
 * reserved part of the source budget fetched at once; a preliminary source-backed report;
 * one optional planner generation (started at the beginning, never waited for by the
 * bootstrap); Host admission of its queries; bounded extra acquisition; one atomic
 * synthesis over the closed catalog; item-local admission.
 */
import { z } from "zod";
import { coreQueryIndex, coreReadTarget } from "../../core/framing.js";
import type { SearchQuery } from "../../core/search-query.js";
import { admissionCatalog, admitSynthesis } from "../../core/synthesis/admission.js";
import { type PlannerOutput, synthesisOutputSchema } from "../../core/synthesis/proposals.js";
import { admitQueries } from "../../core/synthesis/query-admission.js";
import { acquireAll, asTheyReturn, chain, interleave, search, searchAll } from "../../host/acquisition.js";
import { generate } from "../../host/generation.js";
import { buildFromPersisted, describeScope, publish } from "../../host/publication.js";
import type { RunHost } from "../../host/run-host.js";
import type { Generation, Model, PacketSource } from "../../ports/model.js";
import type { RunEvent, SearchCallRecord } from "../../ports/store.js";
import type { Strategy, StrategyResult } from "../strategy.js";
import { packetFor, packetSources, synthesisInput } from "./synthesis-packet.js";

/** Planner limits (queries are maxima: the Host may admit fewer). */
const MAX_PLANNER_QUERIES = 5;
const MAX_QUERY_CHARS = 300;

function startPlanner(
  host: RunHost,
  bootstrap: Promise<readonly PacketSource[]>,
): Promise<Generation<PlannerOutput> | undefined> {
  const model = host.model;
  // A planner never takes the last generation: synthesis must keep one.
  if (!model || host.remaining("generations") < 2) return Promise.resolve(undefined);
  return generate(host, model, "planner", (options) =>
    model.plan(
      {
        question: host.question,
        language: host.request.language,
        scope: describeScope(host),
        scopeKind: host.request.scope.kind,
        maxQueries: Math.min(MAX_PLANNER_QUERIES, host.remaining("searchCalls")),
        maxQueryChars: MAX_QUERY_CHARS,
        bootstrap,
      },
      options,
    ),
  );
}

const queryText = (query: SearchQuery): string => (query.kind === "text" ? query.text : "");

/** The one identity of a query, for "was it already searched". */
const queryKey = (query: SearchQuery): string =>
  query.kind === "text" ? `text:${query.text}` : `pattern:${query.pathPrefix ?? ""}:${query.pattern}`;

const searchQuerySchema = z.union([
  z.object({ kind: z.literal("text"), text: z.string() }),
  z.object({ kind: z.literal("pattern"), pattern: z.string(), pathPrefix: z.string().optional() }),
]);

/** The planned queries a run admitted before it was interrupted (recorded on `queries-admitted`), or undefined. */
function recordedPlan(events: readonly RunEvent[]): SearchQuery[] | undefined {
  const recorded = events.findLast((event) => event.type === "queries-admitted");
  const parsed = z.array(searchQuerySchema).safeParse(recorded?.data.queries);
  if (!parsed.success) return undefined;
  return parsed.data.map(
    (query): SearchQuery =>
      query.kind === "text"
        ? query
        : {
            kind: "pattern",
            pattern: query.pattern,
            ...(query.pathPrefix === undefined ? {} : { pathPrefix: query.pathPrefix }),
          },
  );
}

/**
 * The planner's queries still to search, admitted. On a resume, the queries admitted before the
 * interruption that were not searched yet, each once; the planner is not asked again.
 */
async function plannedQueries(
  host: RunHost,
  planned: Generation<PlannerOutput> | undefined,
  recorded: readonly SearchQuery[] | undefined,
): Promise<SearchQuery[]> {
  let queries: readonly SearchQuery[];
  if (recorded) queries = recorded;
  else {
    if (!planned?.ok) return [];
    const admission = admitQueries(
      planned.value.queries,
      host.searchCalls().map((call) => call.query),
      {
        scopeKind: host.request.scope.kind,
        maxQueries: host.remaining("searchCalls"),
        maxQueryChars: MAX_QUERY_CHARS,
        providerProblem: (query) => host.search.checkQuery(query),
      },
    );
    for (const refused of admission.refused) {
      await host.diagnose("planner", "query-refused", refused.reason, { proposal: refused.proposal });
    }
    queries = admission.admitted;
    // The queries themselves, so that a resumed run searches the rest of them, and only those.
    await host.emit("queries-admitted", {
      admitted: admission.admitted.length,
      refused: admission.refused.length,
      queries: admission.admitted,
    });
  }
  const searched = new Set(
    host
      .searchCalls()
      .filter((call) => call.origin === "planner")
      .map((call) => queryKey(call.query)),
  );
  return queries.filter((query) => {
    if (searched.has(queryKey(query))) return false;
    searched.add(queryKey(query));
    return true;
  });
}

/**
 * Searches `queries` (a few at once) and reads what the planned searches found, starting as the
 * first of them returns: a framed request's core first, to the bootstrap's share (the bootstrap
 * spent its share on the framed request), then every planned search's hits rank by rank
 * (`asTheyReturn`), then the rest of the bootstrap's. No search starts once reading is done.
 */
async function searchAndRead(
  host: RunHost,
  queries: readonly SearchQuery[],
  bootstrapCalls: readonly SearchCallRecord[],
): Promise<void> {
  const earlier = host.searchCalls().filter((call) => call.origin === "planner");
  const batch = searchAll(host, queries, "planner");
  const calls = [...earlier.map((call) => Promise.resolve(call)), ...batch.calls];
  const texts = [...earlier.map((call) => queryText(call.query)), ...queries.map(queryText)];
  try {
    const core = calls[coreQueryIndex(host.question, texts)];
    const share = coreReadTarget(host.request.budgets.bootstrapSources) - host.used("sources");
    const coreCall = core && share > 0 ? await core : undefined;
    if (coreCall?.status === "ok") await acquireAll(host, interleave([coreCall]), { wantSources: share });
    await acquireAll(host, chain(asTheyReturn(calls), interleave(bootstrapCalls)), {
      onFull: () => void batch.stop(),
    });
  } finally {
    await batch.stop();
  }
}

function producedBy(model: Model): string {
  return model.kind === "extractive"
    ? "Findings were selected by Assay's offline extractive engine: each one is a sentence quoted from a source. No language model wrote or checked them."
    : `Findings were proposed by the model ${model.name} and checked by Assay for structure only.`;
}

const recordedCatalogSchema = z.record(z.string(), z.array(z.string()));

/**
 * A synthesis output recorded before a crash, admitted again against the catalog the live
 * run admitted it against (recorded with it): a resumed run publishes what the live run
 * would have, no item the packet left out. A record without its catalog (older runs) is
 * admitted against the packet rebuilt from the same persisted sources.
 */
async function recordedSynthesis(
  host: RunHost,
  model: Model,
  events: readonly RunEvent[],
): Promise<StrategyResult | undefined> {
  const recorded = events.findLast((event) => event.type === "synthesis-admitted" && event.data.output !== undefined);
  if (!recorded) return undefined;
  const parsed = synthesisOutputSchema.safeParse(recorded.data.output);
  if (!parsed.success) return undefined;
  const shown = recordedCatalogSchema.safeParse(recorded.data.catalog);
  const sources = shown.success
    ? host.sources().flatMap((source) => {
        const chunkIds = new Set(shown.data[source.id] ?? []);
        const chunks = source.chunks.filter((chunk) => chunkIds.has(chunk.id));
        return chunks.length > 0 ? [{ id: source.id, chunks }] : [];
      })
    : packetFor(host).sources;
  await host.emit("synthesis-reused", { fromEvent: recorded.seq });
  return {
    synthesis: { admitted: admitSynthesis(parsed.data, admissionCatalog(sources)), producedBy: producedBy(model) },
  };
}

async function synthesize(host: RunHost): Promise<StrategyResult> {
  const model = host.model;
  if (!model || host.sources().length === 0 || host.signal.aborted) return {};
  // After a crash, the recorded output is reused: no second generation for the same work.
  const reused = await recordedSynthesis(host, model, await host.store.listEvents(host.run.id));
  if (reused) return reused;
  await host.stage("synthesis");
  const packet = packetFor(host);
  if (packet.omitted.length > 0) {
    await host.diagnose(
      "synthesis",
      "packet-trimmed",
      `${packet.omitted.reduce((n, item) => n + item.chunks, 0)} passages left out of the packet`,
      {
        omitted: packet.omitted,
        packetChars: packet.chars,
      },
    );
  }
  const result = await generate(host, model, "synthesis", (options) =>
    model.synthesize(synthesisInput(host, packet), options),
  );
  if (!result?.ok) return {};
  const catalog = admissionCatalog(packet.sources);
  const admitted = admitSynthesis(result.value, catalog);
  for (const dropped of admitted.diagnostics) {
    await host.diagnose("admission", `${dropped.kind}-dropped`, dropped.reason, { itemId: dropped.itemId });
  }
  await host.emit("synthesis-admitted", {
    facts: admitted.facts.length,
    derivations: admitted.derivations.length,
    recommendations: admitted.recommendations.length,
    gaps: admitted.gaps.length,
    dropped: admitted.diagnostics.length,
    // The proposals themselves and the catalog they were admitted against (source id -> chunk
    // ids), so that a resumed run publishes the same items without another generation.
    output: result.value,
    catalog: Object.fromEntries(packet.sources.map((source) => [source.id, source.chunks.map((chunk) => chunk.id)])),
  });
  return { synthesis: { admitted, producedBy: producedBy(model) } };
}

export const pipelineStrategy: Strategy = {
  name: "pipeline",
  async run(host: RunHost): Promise<StrategyResult> {
    // A revision that adds nothing reads what its report already read: no search, no fetch.
    if (host.searchText.trim() === "") return synthesize(host);
    await host.stage("bootstrap");
    // The planner starts now; a generative planner needs nothing from the bootstrap.
    let resolveSources: (sources: readonly PacketSource[]) => void = () => {};
    const bootstrapSources = new Promise<readonly PacketSource[]>((resolve) => {
      resolveSources = resolve;
    });
    // Once: the packet of the bootstrap's sources is built when the planner is released, not again.
    let released = false;
    const resolveBootstrap = (): void => {
      if (released) return;
      released = true;
      resolveSources(packetSources(host));
    };
    // A resumed run searches what its planner proposed before the interruption; it does not plan again.
    const plan = recordedPlan(await host.store.listEvents(host.run.id));
    const resumedPlanner = plan !== undefined || host.searchCalls().some((call) => call.origin === "planner");
    const planner = resumedPlanner ? Promise.resolve(undefined) : startPlanner(host, bootstrapSources);

    // The preliminary report is written while the planned searches run, and is out before synthesis.
    let preliminary: Promise<unknown> = Promise.resolve();
    try {
      const previous = host.searchCalls().find((call) => call.origin === "bootstrap" && call.status === "ok");
      const bootstrap = previous ?? (await search(host, { kind: "text", text: host.searchText }, "bootstrap"));
      const bootstrapCalls = bootstrap?.status === "ok" ? [bootstrap] : [];
      // Sources carried over from a parent run take no slot: the bootstrap reads its share of new ones.
      const reserve = Math.max(0, host.request.budgets.bootstrapSources - host.used("sources"));
      if (reserve > 0 && bootstrapCalls.length > 0)
        await acquireAll(host, interleave(bootstrapCalls), { wantSources: reserve });
      resolveBootstrap();
      if (host.sources().length > 0 && !host.signal.aborted) {
        // Built now, from the bootstrap's sources alone; rendered and written alongside the
        // planned searches, which wait on the network: many runs in one process no longer
        // queue their searches behind each other's preliminary files.
        const document = await buildFromPersisted(host, "preliminary");
        preliminary = publish(host, document, "preliminary");
        preliminary.catch(() => {}); // handled where it is awaited, below
      }

      await host.stage("planning");
      const queries = await plannedQueries(host, await planner, plan);

      await host.stage("acquisition");
      await searchAndRead(host, queries, bootstrapCalls);
    } finally {
      resolveBootstrap();
      await preliminary;
    }
    return synthesize(host);
  },
};
