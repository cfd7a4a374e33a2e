/** Seed 004 "Required Evaluation": the pipeline's degradation rules, with a scripted model. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createOfflineModel } from "../../adapters/models/offline/offline-model.js";
import type { SynthesisOutput } from "../../core/synthesis/proposals.js";
import { SEARCH_CONCURRENCY } from "../../host/acquisition.js";
import type { Model, SynthesisInput } from "../../ports/model.js";
import { type FakeScopeOptions, syntheticDocuments } from "../../testing/fake-scope.js";
import { publishedReport } from "../../testing/read-report.js";
import { type RuntimeFixture, runtimeFixture } from "../../testing/runtime-fixture.js";
import { fail, ScriptedModel, succeed } from "../../testing/scripted-model.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});
const QUESTION = "lithium battery cathode energy";

function make(model: ScriptedModel, fetchLatencyMs = 0): RuntimeFixture {
  const fixture = runtimeFixture({ documents: syntheticDocuments(12), fetchLatencyMs }, undefined, model);
  fixtures.push(fixture);
  return fixture;
}

function report(fixture: RuntimeFixture) {
  return publishedReport(join(fixture.outDir, "report.json"));
}

/** Facts that quote the first sentence of the first two packet chunks, plus one invalid sibling. */
function factsFrom(input: SynthesisInput): SynthesisOutput {
  const [first, second] = input.sources;
  const sentence = (text: string) => text.split(". ")[0] ?? text;
  const fact = (id: string, source: typeof first) => {
    const chunk = source?.chunks[0];
    return source && chunk ? [{ id, text: `${sentence(chunk.text)}.`, sourceId: source.id, chunkIds: [chunk.id] }] : [];
  };
  return {
    facts: [
      ...fact("f1", first),
      ...fact("f2", second),
      { id: "f3", text: "Invented by aliens in 1850.", sourceId: "s_999", chunkIds: ["s_999.p01"] },
    ],
    derivations: [{ id: "d1", text: "Rests on the invalid fact.", premiseIds: ["f3"], method: "none" }],
    recommendations: [],
    gaps: [{ id: "g1", text: "The sources give no prices.", relatedSourceIds: [] }],
  };
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Resolves once the fixture's (only) run has an event of `type`, or after `capMs`. */
async function eventSeen(fixture: RuntimeFixture, type: string, capMs: number, signal?: AbortSignal) {
  const deadline = Date.now() + capMs;
  while (Date.now() < deadline && !signal?.aborted) {
    const [run] = await fixture.store.listRuns({ limit: 1 });
    if (run && (await fixture.store.listEvents(run.id)).some((event) => event.type === type)) return;
    await wait(10, signal);
  }
}

describe("the pipeline under a cost limit", () => {
  const costEvents = async (fixture: RuntimeFixture) => {
    const [run] = await fixture.store.listRuns({ limit: 1 });
    return (await fixture.store.listEvents(run?.id ?? 0)).filter(
      (event) =>
        (event.type === "budget-exhausted" && event.data.budget === "cost") || event.type === "generation-finished",
    );
  };

  it("starts no generation once the spend reached maxCostUsd, and publishes from the sources it read", async () => {
    // 150 tokens a call at $0.001 a token: the plan costs $0.15, over the $0.1 limit.
    const model = new ScriptedModel({ usdPerToken: 0.001 }).onPlan(async () =>
      succeed({ queries: [{ text: "cathode density cost" }] }),
    );
    const fixture = make(model);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4, maxCostUsd: 0.1 }));
    model.assertConsumed();
    expect(model.calls.map((call) => call.call)).toEqual(["plan"]);
    expect(outcome.artifactStatus).toBe("source-backed");
    const events = await costEvents(fixture);
    expect(events.map((event) => event.type)).toEqual(["generation-finished", "budget-exhausted"]);
    expect(events[1]?.data).toEqual({ budget: "cost", limit: "cost limit of $0.1 ($0.1500 spent)" });
    expect(report(fixture).acquisitionBoundaries).toContain(
      "Model work stopped at the cost limit of $0.1 ($0.1500 spent).",
    );
  });

  it("makes no call at all with a model that has no price, since its spend could not be kept under the limit", async () => {
    const model = new ScriptedModel();
    const fixture = make(model);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4, maxCostUsd: 5 }));
    expect(model.calls).toEqual([]);
    expect(outcome.artifactStatus).toBe("source-backed");
    const [event] = await costEvents(fixture);
    expect(event?.data.limit).toBe("cost limit of $5 (a model call's cost is not known: its model has no price)");
  });
});

describe("the pipeline with a model", () => {
  it("publishes a synthesized report; an invalid sibling and its dependant are dropped, the rest survive", async () => {
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [{ text: "cathode density cost" }, { text: "" }, { pattern: "(a)\\1" }] }))
      .onSynthesize(async (input) => succeed(factsFrom(input)));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 6 }));
    model.assertConsumed();
    expect(outcome.artifactStatus).toBe("synthesized");
    const doc = report(fixture);
    expect(doc.directFindings).toHaveLength(2);
    expect(doc.findings).toEqual([]);
    expect(doc.gaps.map((gap) => gap.text)).toEqual(["The sources give no prices."]);
    expect(doc.sources.length).toBeLessThanOrEqual(2);
    const diagnostics = await fixture.store.listDiagnostics(outcome.runId);
    expect(diagnostics.filter((item) => item.stage === "admission").map((item) => item.code)).toEqual([
      "fact-dropped",
      "derivation-dropped",
    ]);
    expect(diagnostics.filter((item) => item.code === "query-refused")).toHaveLength(2);
    const calls = await fixture.store.listSearchCalls(outcome.runId);
    expect(calls.map((call) => [call.origin, call.query])).toEqual([
      ["bootstrap", { kind: "text", text: QUESTION }],
      ["planner", { kind: "text", text: "cathode density cost" }],
    ]);
    // The model only ever saw Host ids of persisted sources.
    const synthesis = model.calls.find((call) => call.call === "synthesize");
    const persisted = new Set((await fixture.store.listSources(outcome.runId)).map((source) => source.id));
    expect(
      synthesis?.call === "synthesize" && synthesis.input.sources.every((source) => persisted.has(source.id)),
    ).toBe(true);
  });

  it("every source and passage a model sees is already committed", async () => {
    let fixture: RuntimeFixture | undefined;
    const committed = (sources: readonly { id: string; chunks: { id: string }[] }[]) => {
      const db = new BetterSqlite3(fixture?.dbFile ?? "", { readonly: true });
      try {
        for (const source of sources) {
          for (const chunk of source.chunks) {
            const seq = Number(chunk.id.split(".p")[1]);
            const row = db
              .prepare("SELECT COUNT(*) AS n FROM chunks WHERE source_id = ? AND seq = ?")
              .get(source.id, seq) as { n: number };
            expect(row.n, `${chunk.id} committed`).toBe(1);
          }
        }
      } finally {
        db.close();
      }
    };
    const model = new ScriptedModel()
      .onPlan(async (input) => {
        committed(await input.bootstrap);
        return succeed({ queries: [{ text: "cathode density" }] });
      })
      .onSynthesize(async (input) => {
        expect(input.sources.length).toBeGreaterThan(0);
        committed(input.sources);
        return succeed(factsFrom(input));
      });
    fixture = make(model, 10);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 5 }));
    model.assertConsumed();
    expect(outcome.artifactStatus).toBe("synthesized");
  });

  it("planner failure cannot delay or erase bootstrap persistence", async () => {
    // The planner fails only once the preliminary report is out (or after 20 s, when the
    // pipeline wrongly waited for it): an order of events, whatever the machine's speed.
    const model = new ScriptedModel()
      .onPlan(async (_input, options) => {
        await eventSeen(fixture, "preliminary-published", 20_000, options.signal);
        return fail("transport");
      })
      .onSynthesize(async (input) => succeed(factsFrom(input)));
    const fixture = make(model, 20);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 5, bootstrapSources: 2 }));
    const events = await fixture.store.listEvents(outcome.runId);
    const at = (type: string, purpose?: string) =>
      events.find((event) => event.type === type && (purpose === undefined || event.data.purpose === purpose))
        ?.offsetMs ?? Number.NaN;
    expect(at("source-persisted")).toBeLessThan(at("generation-failed", "planner"));
    expect(at("preliminary-published")).toBeLessThan(at("generation-failed", "planner"));
    expect(outcome.artifactStatus).toBe("synthesized");
    expect((await fixture.store.listSources(outcome.runId)).length).toBe(5);
  });

  it("malformed planner output is not terminal: the ranked bootstrap catalog fills the budget", async () => {
    const model = new ScriptedModel()
      .onPlan(async () => fail("malformed", "not JSON"))
      .onSynthesize(async (input) => succeed(factsFrom(input)));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 6 }));
    expect(outcome.status).toBe("finished");
    expect((await fixture.store.listSources(outcome.runId)).length).toBe(6);
    expect((await fixture.store.listSearchCalls(outcome.runId)).map((call) => call.origin)).toEqual(["bootstrap"]);
  });

  it("synthesis failure keeps the source-backed document", async () => {
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [] }))
      .onSynthesize(async () => fail("timeout"));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4 }));
    expect(outcome).toMatchObject({ status: "finished", artifactStatus: "source-backed" });
    const doc = report(fixture);
    expect(doc.sourceCards.length).toBeGreaterThan(0);
    expect(doc.directFindings).toEqual([]);
    const diagnostics = await fixture.store.listDiagnostics(outcome.runId);
    expect(diagnostics.some((item) => item.code === "synthesis-timeout")).toBe(true);
  });

  it("the planner never takes the last generation", async () => {
    const model = new ScriptedModel().onSynthesize(async (input) => succeed(factsFrom(input)));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 3, maxGenerations: 1 }));
    model.assertConsumed();
    expect(model.calls.map((call) => call.call)).toEqual(["synthesize"]);
    expect(outcome.artifactStatus).toBe("synthesized");
  });

  it("a synthesis cut by the deadline publishes from persisted state", async () => {
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [] }))
      .onSynthesize(async (_input, options) => {
        await wait(60_000, options.signal);
        cut = options.signal?.aborted === true;
        return fail("timeout");
      });
    let cut = false;
    const fixture = make(model);
    const outcome = await fixture.runtime.run(
      fixture.request(QUESTION, { maxSources: 3, wallClockMs: 1_500, publishReserveMs: 500 }),
    );
    expect(outcome).toMatchObject({ status: "finished", artifactStatus: "source-backed" });
    // The deadline aborted the synthesis (not its own 60 s), and publication followed it.
    expect(cut).toBe(true);
    const types = (await fixture.store.listEvents(outcome.runId)).map((event) => event.type);
    expect(types).toContain("deadline-reached");
    expect(types.indexOf("deadline-reached")).toBeLessThan(types.lastIndexOf("final-published"));
  });

  it("a finding the model paraphrased shows, under it, the exact sentence of the source it rests on", async () => {
    const sentence =
      "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery, which powered its CCD-TR1 camcorder.";
    const text = [
      "Battery research in Japan grew quickly during the 1980s, with several electronics firms funding laboratories.",
      "Many of those laboratories studied nickel-metal hydride cells, which were safer but heavier.",
      sentence,
      "Cobalt for the cathodes came mostly from mines in central Africa.",
      "Prices of consumer camcorders fell through the decade as production grew.",
    ].join(" ");
    const paraphrase = "Sony's first commercial lithium-ion battery went on sale in 1991, in a camcorder.";
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [] }))
      .onSynthesize(async (input) => {
        const [source] = input.sources;
        const chunk = source?.chunks.find((candidate) => candidate.text.includes("CCD-TR1"));
        return succeed({
          facts: source && chunk ? [{ id: "f1", text: paraphrase, sourceId: source.id, chunkIds: [chunk.id] }] : [],
          derivations: [],
          recommendations: [],
          gaps: [],
        });
      });
    const fixture = runtimeFixture(
      { documents: [{ path: "sony.md", title: "Sony and the battery", text: `# Sony and the battery\n\n${text}` }] },
      undefined,
      model,
    );
    fixtures.push(fixture);
    const outcome = await fixture.runtime.run(fixture.request("Sony lithium-ion battery camcorder", { maxSources: 1 }));
    model.assertConsumed();
    expect(outcome.artifactStatus).toBe("synthesized");
    const doc = report(fixture);
    const [finding] = doc.directFindings;
    expect(finding?.text).toBe(paraphrase);
    const [quote] = finding?.citations[0]?.evidence?.quotes ?? [];
    expect(quote?.text).toBe(sentence);
    // Where it stands in the text the store kept.
    const [stored] = await fixture.store.listSources(outcome.runId);
    expect(stored?.content.slice(quote?.start, quote?.end)).toBe(sentence);
    const markdown = readFileSync(join(fixture.outDir, "report.md"), "utf8");
    expect(markdown).toContain(`> Evidence [1: passage 1]: “… ${sentence} …”`);
    const html = readFileSync(join(fixture.outDir, "report.html"), "utf8");
    expect(html).toContain(
      `<details class="evidence" data-role="cited"><summary>Evidence [1: passage 1]</summary><blockquote><p>… ${sentence} …</p>`,
    );
  });
});

describe("a framed request", () => {
  const frame = "following claim supported contradicted literature";

  /**
   * The sources a run of `question` reads (maxSources 5, bootstrapSources 3) over three documents
   * that the frame's words rank first, two that the core finds and two of an expansion, planned
   * before the core.
   */
  async function readFor(question: string): Promise<string[]> {
    const documents = [
      ...[1, 2, 3].map((n) => ({ path: `frame-${n}.md`, title: `Frame ${n}`, text: `${frame} alpha note ${n}.` })),
      ...[1, 2].map((n) => ({ path: `core-${n}.md`, title: `Core ${n}`, text: `Alpha beta gamma delta, study ${n}.` })),
      ...[1, 2].map((n) => ({ path: `zeta-${n}.md`, title: `Zeta ${n}`, text: `Zeta expansion, record ${n}.` })),
    ];
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [{ text: "zeta expansion" }, { text: "alpha beta gamma delta" }] }))
      .onSynthesize(async (input) => succeed(factsFrom(input)));
    const fixture = runtimeFixture({ documents }, undefined, model);
    fixtures.push(fixture);
    const outcome = await fixture.runtime.run(fixture.request(question, { maxSources: 5, bootstrapSources: 3 }));
    expect(outcome.status).toBe("finished");
    return (await fixture.store.listSources(outcome.runId)).map((source) => source.canonicalAnchor).sort();
  }

  it("reads what a search of the frame's core finds as it reads the bootstrap's sources, before the expansions", async () => {
    const read = await readFor(
      `Is the ${frame.replace("contradicted", "or contradicted by the")}: alpha beta gamma delta?`,
    );
    expect(read).toEqual(["core-1.md", "core-2.md", "frame-1.md", "frame-2.md", "frame-3.md"]);
  });

  it("an unframed request interleaves its planned queries rank by rank, as before", async () => {
    const read = await readFor(`${frame} alpha beta gamma delta`);
    expect(read).toContain("zeta-1.md");
    expect(read).toHaveLength(5);
  });
});

/**
 * A run of "everything else" over a seed document the bootstrap finds and three documents the
 * planner's queries "alpha", "beta" and "gamma" find one each; `order` records the synthesis.
 */
function plannedRun(scope: Omit<FakeScopeOptions, "documents">, order: string[]): RuntimeFixture {
  const documents = [
    ...["alpha", "beta", "gamma"].map((word) => ({
      path: `${word}.md`,
      title: `On ${word}`,
      text: `The ${word} record says something about ${word}.`,
    })),
    { path: "seed.md", title: "Seed", text: "A seed document about everything else." },
  ];
  const model = new ScriptedModel()
    .onPlan(async () => succeed({ queries: ["alpha", "beta", "gamma"].map((text) => ({ text })) }))
    .onSynthesize(async (input) => {
      order.push("synthesis");
      return succeed(factsFrom(input));
    });
  const fixture = runtimeFixture({ ...scope, documents }, undefined, model);
  fixtures.push(fixture);
  return fixture;
}

describe("planned searches and reading", () => {
  it("start reading the first planned search's best hit before the last planned search returns", async () => {
    // The last planned search answers only once a fetch of the first one's hit has started.
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const fixture = plannedRun(
      {
        beforeAnswer: async (query) => {
          if (query.kind === "text" && query.text === "gamma") {
            // A safety net: a run that waits for every search before reading would otherwise hang.
            await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 10_000))]);
            order.push("gamma search answers");
          }
        },
        onFetch: (anchor) => {
          order.push(`fetch ${anchor}`);
          if (anchor === "alpha.md") release();
        },
      },
      order,
    );
    const outcome = await fixture.runtime.run(
      fixture.request("everything else", { maxSources: 4, bootstrapSources: 1 }),
    );
    expect(outcome.status).toBe("finished");
    expect(order.indexOf("fetch alpha.md")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("fetch alpha.md")).toBeLessThan(order.indexOf("gamma search answers"));
    // Every planned search's best hit is still read, in the planner's order.
    expect(order.filter((line) => line.startsWith("fetch ")).slice(1)).toEqual([
      "fetch alpha.md",
      "fetch beta.md",
      "fetch gamma.md",
    ]);
  });
});

describe("a full source budget", () => {
  it("stops the planned searches still out and synthesizes without waiting for them; they are not recorded", async () => {
    const order: string[] = [];
    const fixture = plannedRun(
      {
        // The last planned search would answer only after ten seconds, unless stopped.
        beforeAnswer: (query, signal) =>
          query.kind === "text" && query.text === "gamma"
            ? new Promise<void>((resolve, reject) => {
                const timer = setTimeout(() => {
                  order.push("gamma answers");
                  resolve();
                }, 10_000);
                signal?.addEventListener("abort", () => {
                  clearTimeout(timer);
                  order.push("gamma stopped");
                  reject(signal.reason);
                });
              })
            : Promise.resolve(),
      },
      order,
    );
    const outcome = await fixture.runtime.run(
      fixture.request("everything else", { maxSources: 2, bootstrapSources: 1 }),
    );
    expect(outcome.status).toBe("finished");
    expect(order).toEqual(["gamma stopped", "synthesis"]);
    const searched = (await fixture.store.listSearchCalls(outcome.runId)).map((call) =>
      call.query.kind === "text" ? call.query.text : "",
    );
    expect(searched).not.toContain("gamma");
    expect((await fixture.store.listSources(outcome.runId)).map((source) => source.canonicalAnchor)).toEqual([
      "seed.md",
      "alpha.md",
    ]);
  });
});

describe("gaps and resumes that say what the run read", () => {
  const MOLI = "Moli Energy of Vancouver made the cells sold in the Moli cells recall.";
  /** Twelve documents on the question's terms, and one whose last passage, off the question, names Moli. */
  const documents = [
    ...syntheticDocuments(12),
    {
      path: "long.md",
      title: "A long note",
      text: `${syntheticDocuments(1, 600)[0]?.text ?? ""}\n\n${"Other matters fill this page. ".repeat(40)}\n\n${MOLI}`,
    },
  ];

  it("an offline gap is computed against every persisted passage, not only the packet", async () => {
    const offline = createOfflineModel();
    let seen: SynthesisInput | undefined;
    const model: Model = {
      ...offline,
      synthesize: (input, options) => {
        seen = input;
        return offline.synthesize(input, options);
      },
    };
    const fixture = runtimeFixture({ documents }, undefined, model);
    fixtures.push(fixture);
    const question = "lithium battery cathode energy density cost at Moli and Zanzibar";
    const outcome = await fixture.runtime.run(fixture.request(question, { maxSources: 13, maxPacketChars: 4_000 }));
    expect(outcome.artifactStatus).toBe("synthesized");
    // The Moli passage was read but left out of the packet.
    const inPacket = (seen?.sources ?? []).flatMap((source) => source.chunks.map((chunk) => chunk.text));
    const read = (seen?.read ?? []).flatMap((source) => source.chunks.map((chunk) => chunk.text));
    expect(inPacket.some((text) => text.includes("Moli"))).toBe(false);
    expect(read.some((text) => text.includes("Moli"))).toBe(true);
    const gaps = report(fixture).gaps.map((gap) => gap.text);
    expect(gaps).toContain("The sources read do not mention Zanzibar.");
    expect(gaps.filter((text) => text.includes("Moli"))).toEqual([]);
  });

  it("a resumed run admits the recorded synthesis against the catalog the live run admitted it against", async () => {
    // The model cites a persisted passage it was not given in the packet: the live run drops it.
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [] }))
      .onSynthesize(async (input) => {
        const shown = new Set(input.sources.flatMap((source) => source.chunks.map((chunk) => chunk.id)));
        const outside = (input.read ?? []).flatMap((source) =>
          source.chunks.filter((chunk) => !shown.has(chunk.id)).map((chunk) => ({ sourceId: source.id, chunk })),
        )[0];
        expect(outside).toBeDefined();
        const output = factsFrom(input);
        const unseen = outside
          ? [
              {
                id: "f9",
                text: "A passage left out of the packet.",
                sourceId: outside.sourceId,
                chunkIds: [outside.chunk.id],
              },
            ]
          : [];
        return succeed({ ...output, facts: [...output.facts, ...unseen] });
      });
    const fixture = runtimeFixture({ documents }, undefined, model);
    fixtures.push(fixture);
    const crashed = await fixture.runtime.run(
      fixture.request("lithium battery cathode energy", { maxSources: 13, maxPacketChars: 4_000 }),
    );
    model.assertConsumed();
    const live = report(fixture).directFindings.map((finding) => finding.text);
    expect(live).not.toContain("A passage left out of the packet.");
    // As after a SIGKILL before publication: the recorded synthesis is reused, with no generation.
    await fixture.store.updateRun(crashed.runId, { status: "running" });
    const idle = new ScriptedModel();
    const resumed = await fixture.withModel(idle).resume(crashed.runId);
    idle.assertConsumed();
    expect(idle.calls).toEqual([]);
    expect(resumed.artifactStatus).toBe("synthesized");
    expect(report(fixture).directFindings.map((finding) => finding.text)).toEqual(live);
    const types = (await fixture.store.listEvents(crashed.runId)).map((event) => event.type);
    expect(types).toContain("synthesis-reused");
  });

  it("a run interrupted in the middle of its planned searches resumes the rest of them, each exactly once", async () => {
    // More queries than run at once (SEARCH_CONCURRENCY), so that some are left when the process dies.
    const planned = ["cathode density", "anode safety", "electrolyte cycle", "separator film", "binder slurry"];
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: planned.map((text) => ({ text })) }))
      .onSynthesize(async (input) => succeed(factsFrom(input)));
    const fixture = make(model);
    const handBack = new AbortController();
    const interrupted = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 8 }), {
      handBack: handBack.signal,
      listeners: [
        (event) => {
          if (event.type === "search-finished" && event.data.origin === "planner") {
            handBack.abort(new Error("the process died"));
          }
        },
      ],
    });
    expect(interrupted.status).toBe("running");
    const before = await fixture.store.listSearchCalls(interrupted.runId);
    const searchedBefore = before.filter((call) => call.origin === "planner").length;
    expect(searchedBefore).toBeGreaterThanOrEqual(1);
    expect(searchedBefore).toBeLessThanOrEqual(SEARCH_CONCURRENCY);
    // The resumed run does not plan again: it searches the planned queries left, then synthesizes.
    const second = new ScriptedModel().onSynthesize(async (input) => succeed(factsFrom(input)));
    const resumed = await fixture.withModel(second).resume(interrupted.runId);
    second.assertConsumed();
    expect(second.calls.map((call) => call.call)).toEqual(["synthesize"]);
    expect(resumed.artifactStatus).toBe("synthesized");
    const calls = await fixture.store.listSearchCalls(interrupted.runId);
    const byText = (a: { text: string }, b: { text: string }) => a.text.localeCompare(b.text);
    expect(
      calls
        .filter((call) => call.origin === "planner")
        .map((call) => call.query as { kind: "text"; text: string })
        .sort(byText),
    ).toEqual(planned.map((text) => ({ kind: "text" as const, text })).sort(byText));
  });
});

describe("follow-ups and revisions with a model", () => {
  /** Two admitted facts on the first two packet sources, with the texts given. */
  const facts = (input: SynthesisInput, texts: readonly string[]): SynthesisOutput => ({
    facts: texts.flatMap((text, index) => {
      const source = input.sources[index];
      const chunk = source?.chunks[0];
      return source && chunk ? [{ id: `f${index + 1}`, text, sourceId: source.id, chunkIds: [chunk.id] }] : [];
    }),
    derivations: [],
    recommendations: [],
    gaps: [],
  });

  it("the model answers the follow-up from the parent's sources without a fetch, and a revision drops what it is told to", async () => {
    const model = new ScriptedModel()
      .onPlan(async () => succeed({ queries: [] }))
      .onSynthesize(async (input) =>
        succeed(facts(input, ["Cathodes hold the lithium.", "Recycling recovers cobalt."])),
      );
    const fixture = make(model);
    const parent = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4 }));
    expect(parent.artifactStatus).toBe("synthesized");
    const parentSources = await fixture.store.listSources(parent.runId);

    // A follow-up: the model is asked the follow-up, with the parent's sources its search reached.
    model
      .onPlan(async () => succeed({ queries: [] }))
      .onSynthesize(async (input) => succeed(facts(input, ["Anodes hold the lithium too."])));
    const base = fixture.request(QUESTION, { maxSources: 2 });
    const followUp = await fixture.runtime.run({
      ...base,
      question: "lithium anode",
      outDir: join(fixture.outDir, "..", "follow-up"),
      lineage: { parentId: parent.runId, relation: "follow-up", instruction: "" },
    });
    expect(followUp.artifactStatus).toBe("synthesized");
    const asked = model.calls.filter((call) => call.call === "synthesize").at(-1);
    expect(asked?.call === "synthesize" && asked.input.question).toBe("lithium anode");
    const carried = new Set(parentSources.map((source) => source.id));
    expect(asked?.call === "synthesize" && asked.input.sources.some((source) => carried.has(source.id))).toBe(true);
    const events = await fixture.store.listEvents(followUp.runId);
    const fetched = events.filter((event) => event.type === "source-fetched").map((event) => event.data.anchor);
    expect(fetched.filter((anchor) => parentSources.some((source) => source.canonicalAnchor === anchor))).toEqual([]);
    // Its budget is spent on new sources only: at most 2 fetched, whatever it reused.
    expect(fetched.length).toBeLessThanOrEqual(2);

    // A revision that drops a topic: the model's finding on it is left out, and counted.
    model.onSynthesize(async (input) =>
      succeed(facts(input, ["Cathodes hold the lithium.", "Recycling recovers cobalt."])),
    );
    const revision = await fixture.runtime.run({
      ...base,
      outDir: join(fixture.outDir, "..", "revision"),
      lineage: { parentId: parent.runId, relation: "revision", instruction: "drop the part on recycling" },
    });
    const revised = publishedReport(join(fixture.outDir, "..", "revision", "report.json"));
    expect(revision.artifactStatus).toBe("synthesized");
    expect([...revised.directFindings, ...revised.findings].map((item) => item.text)).toEqual([
      "Cathodes hold the lithium.",
    ]);
    expect(revised.lineage).toMatchObject({
      relation: "revision",
      version: 2,
      droppedByInstruction: 1,
      removedFindings: [{ text: "Recycling recovers cobalt." }],
    });
    // A revision that adds nothing searches nothing.
    expect(await fixture.store.listSearchCalls(revision.runId)).toEqual([]);
    model.assertConsumed();
  });
});
