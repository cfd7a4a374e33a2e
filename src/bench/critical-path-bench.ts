/**
 * Web runs against their critical path (issue 23): a whole pipeline run over a loopback web of
 * many sites with injected latencies (a SearXNG-shaped search, each site's robots.txt and pages,
 * a scripted model), its wall time against the lower bound those latencies allow, and the first
 * durable source against its own bound. Then the investigative strategy with a scripted model
 * whose every turn takes the same latency: its wall time against turns × that latency.
 *
 * Every site is its own registrable domain (`siteNN.bench`, resolved to 127.0.0.1 by the
 * fetcher's lookup), so nothing waits on politeness but what the pipeline itself chose; each run
 * has its own robots.txt cache, so every site's robots.txt is read once per run, as on a first
 * visit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { RobotsCache } from "../adapters/fetch/http/robots-cache.js";
import { openSqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { webScopeOpener } from "../adapters/web/web-scope.js";
import { resolveBudgets } from "../core/budgets.js";
import type { SynthesisOutput } from "../core/synthesis/proposals.js";
import type { SynthesisInput } from "../ports/model.js";
import { createRuntime } from "../runtime/runtime.js";
import { ScriptedModel, succeed } from "../testing/scripted-model.js";
import { fixed, median, printFigures } from "./figures.js";
import { investigativeRun } from "./investigative-prompt-bench.js";

const SEARCH_MS = 250;
const ROBOTS_MS = 50;
const PAGE_MS = 200;
const MODEL_MS = 500;
/** Sites per search: the bootstrap's and each planned query's hits are on sites of their own. */
const SITES_PER_SEARCH = 6;
const PLANNED_QUERIES = 2;
const MAX_SOURCES = 8;
const BOOTSTRAP_SOURCES = 3;
/** Fetches in flight at once (acquireAll's default). */
const FETCH_CONCURRENCY = 4;
const INVESTIGATIVE_TURNS = 12;
const INVESTIGATIVE_MODEL_MS = 200;

const QUESTION = "How did lithium battery cells change?";
const TOPICS = ["lithium battery cells", "cathode chemistry", "anode materials"];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The loopback web: `/search` answers as SearXNG does; every other host is a site with robots.txt and pages. */
async function loopbackWeb(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const host = (request.headers.host ?? "").split(":")[0] ?? "";
    if (url.pathname === "/search") {
      const query = url.searchParams.get("q") ?? "";
      const topic = Math.max(
        0,
        TOPICS.findIndex((text) => query.toLowerCase().includes(text.split(" ")[0] ?? "")),
      );
      const planned = query === QUESTION ? 0 : 1 + (topic % PLANNED_QUERIES);
      const results = Array.from({ length: SITES_PER_SEARCH }, (_, index) => {
        const site = planned * SITES_PER_SEARCH + index + 1;
        return {
          url: `http://site${String(site).padStart(2, "0")}.bench:${port()}/article`,
          title: `Site ${site} on ${TOPICS[topic]}`,
          content: `What site ${site} says about ${TOPICS[topic]}.`,
          engine: "bench",
        };
      });
      void sleep(SEARCH_MS).then(() =>
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ query, number_of_results: results.length, results })),
      );
      return;
    }
    if (url.pathname === "/robots.txt") {
      void sleep(ROBOTS_MS).then(() =>
        response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n"),
      );
      return;
    }
    void sleep(PAGE_MS).then(() =>
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!DOCTYPE html><html><head><title>${host}</title></head><body><main><h1>${host}</h1>` +
            `<p>Lithium battery cells changed at ${host}: their cathode chemistry and anode materials improved ` +
            `year after year, and their cost fell as factories grew.</p></main></body></html>`,
        ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (): number => (server.address() as AddressInfo).port;
  return { server, origin: `http://127.0.0.1:${port()}` };
}

/** The first sentence of the first passage of the first two sources, as facts. */
function factsOf(input: SynthesisInput): SynthesisOutput {
  const facts = input.sources.slice(0, 2).flatMap((source, index) => {
    const chunk = source.chunks[0];
    const sentence = chunk?.text.split(". ")[0];
    return chunk && sentence
      ? [{ id: `f${index + 1}`, text: `${sentence.replace(/\.$/, "")}.`, sourceId: source.id, chunkIds: [chunk.id] }]
      : [];
  });
  return { facts, derivations: [], recommendations: [], gaps: [] };
}

interface PipelineSample {
  wallMs: number;
  firstPersistedMs: number;
  sources: number;
}

async function pipelineRun(tempRoot: string, origin: string): Promise<PipelineSample> {
  const folder = mkdtempSync(join(tempRoot, "critical-path-"));
  const store = openSqliteStore({ file: join(folder, "assay.sqlite") });
  try {
    const model = new ScriptedModel()
      .onPlan(async () => {
        await sleep(MODEL_MS);
        return succeed({ queries: TOPICS.slice(1, 1 + PLANNED_QUERIES).map((text) => ({ text })) });
      })
      .onSynthesize(async (input) => {
        await sleep(MODEL_MS);
        return succeed(factsOf(input));
      });
    const runtime = createRuntime({
      store,
      artifacts: new FilesystemArtifactStore(),
      clock: systemClock,
      scopes: webScopeOpener({
        apiKeyFor: () => undefined,
        fetcher: {
          lookup: async () => [{ address: "127.0.0.1", family: 4 }],
          robotsCache: new RobotsCache({ now: Date.now }),
        },
      }),
      model,
      worker: "bench",
    });
    const budgets = resolveBudgets({ maxSources: MAX_SOURCES, bootstrapSources: BOOTSTRAP_SOURCES });
    if (!budgets.ok) throw new Error(budgets.error);
    const started = performance.now();
    const outcome = await runtime.run({
      question: QUESTION,
      language: "en",
      strategy: "pipeline",
      model: model.name,
      scope: {
        kind: "web",
        search: { provider: "searxng", baseUrl: origin },
        allowHosts: ["127.0.0.1"],
        label: "a loopback web",
      },
      budgets: budgets.value,
      outDir: join(folder, "out"),
    });
    const wallMs = performance.now() - started;
    if (outcome.status !== "finished") throw new Error(`the bench run ended ${outcome.status}`);
    return {
      wallMs,
      firstPersistedMs: outcome.timings.firstSourcePersistedMs ?? Number.NaN,
      sources: (await store.listSources(outcome.runId)).length,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Prints the critical-path figures; `runs` measured runs of each strategy after one warm-up. */
export async function criticalPathBench(tempRoot: string, runs: number): Promise<void> {
  const visit = ROBOTS_MS + PAGE_MS;
  const firstBound = SEARCH_MS + visit;
  const plannedRounds = Math.ceil((MAX_SOURCES - BOOTSTRAP_SOURCES) / FETCH_CONCURRENCY);
  // The planner runs beside the bootstrap; the planned searches run at once; then their pages and the synthesis.
  const pipelineBound = Math.max(MODEL_MS, SEARCH_MS + visit) + SEARCH_MS + plannedRounds * visit + MODEL_MS;
  const { server, origin } = await loopbackWeb();
  try {
    await pipelineRun(tempRoot, origin);
    const samples: PipelineSample[] = [];
    for (let run = 0; run < runs; run++) samples.push(await pipelineRun(tempRoot, origin));
    await investigativeRun(tempRoot, INVESTIGATIVE_TURNS, INVESTIGATIVE_MODEL_MS);
    const investigative: number[] = [];
    for (let run = 0; run < runs; run++) {
      investigative.push((await investigativeRun(tempRoot, INVESTIGATIVE_TURNS, INVESTIGATIVE_MODEL_MS)).wallMs);
    }
    const investigativeBound = INVESTIGATIVE_TURNS * INVESTIGATIVE_MODEL_MS;

    console.log("\nCritical path: a pipeline run over a loopback web, and a scripted investigative run");
    console.log(
      `  latencies: search ${SEARCH_MS} ms, robots.txt ${ROBOTS_MS} ms, page ${PAGE_MS} ms, model call ${MODEL_MS} ms; ` +
        `${SITES_PER_SEARCH} sites per search, each its own registrable domain; ${MAX_SOURCES} sources ` +
        `(${BOOTSTRAP_SOURCES} from the bootstrap), ${PLANNED_QUERIES} planned queries.`,
    );
    printFigures(
      String(runs),
      [
        ["K", "pipeline: wall time of runtime.run()", samples.map((sample) => sample.wallMs), "ms"],
        ["K1", "pipeline: its critical-path lower bound", [pipelineBound], "ms"],
        ["K2", "pipeline: wall / lower bound", samples.map((sample) => sample.wallMs / pipelineBound), "x"],
        ["K3", "first source persisted (run clock)", samples.map((sample) => sample.firstPersistedMs), "ms"],
        [
          "K4",
          "first source persisted - (search + robots.txt + page)",
          samples.map((sample) => sample.firstPersistedMs - firstBound),
          "ms",
        ],
        ["K5", "sources persisted", samples.map((sample) => sample.sources), ""],
        ["L", `investigative: wall time of ${INVESTIGATIVE_TURNS} scripted turns`, investigative, "ms"],
        [
          "L1",
          `investigative: wall / (turns x ${INVESTIGATIVE_MODEL_MS} ms)`,
          investigative.map((wall) => wall / investigativeBound),
          "x",
        ],
      ],
      "runs",
    );
    console.log(
      `  ratios (medians): pipeline ${fixed(median(samples.map((sample) => sample.wallMs)) / pipelineBound, 2)}x its bound; ` +
        `first source ${fixed(median(samples.map((sample) => sample.firstPersistedMs)) - firstBound, 0)} ms over its bound; ` +
        `investigative ${fixed(median(investigative) / investigativeBound, 2)}x turns x model latency.`,
    );
    console.log(`
  K1  max(model, search + robots.txt + page) [the planner beside the bootstrap search and its
      pages] + search [the planned searches, run at once] + ${plannedRounds} x (robots.txt + page) [the
      planned pages, ${FETCH_CONCURRENCY} fetched at once, each on a site not visited before] + model [the
      synthesis] = ${pipelineBound} ms. Publication, persistence and extraction are the run's own work.
  K3/K4  timings.firstSourcePersistedMs against search + robots.txt + page = ${firstBound} ms.
  L   the investigative strategy over a fake corpus with no search or fetch latency and a scripted
      model whose every turn takes ${INVESTIGATIVE_MODEL_MS} ms: its bound is turns x that latency.`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
