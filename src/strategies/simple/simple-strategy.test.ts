/** The simple baseline: a tool-calling loop inside the Host envelope, with a scripted model. */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage, AgentTurnInput } from "../../ports/model.js";
import { syntheticDocuments } from "../../testing/fake-scope.js";
import { publishedReport } from "../../testing/read-report.js";
import { type RuntimeFixture, runtimeFixture } from "../../testing/runtime-fixture.js";
import { fail, ScriptedModel, succeed } from "../../testing/scripted-model.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});
const QUESTION = "lithium battery cathode energy";

function make(model: ScriptedModel): RuntimeFixture {
  const fixture = runtimeFixture({ documents: syntheticDocuments(12) }, undefined, model);
  fixtures.push(fixture);
  return fixture;
}

const simple = (fixture: RuntimeFixture, budgets = {}) => ({
  ...fixture.request(QUESTION, budgets),
  strategy: "simple" as const,
});

function report(fixture: RuntimeFixture) {
  return publishedReport(join(fixture.outDir, "report.json"));
}

const toolMessages = (input: AgentTurnInput) =>
  input.transcript.filter((message): message is Extract<AgentMessage, { role: "tool" }> => message.role === "tool");

const search = (query: string) =>
  succeed({ kind: "tools" as const, calls: [{ id: "c1", tool: "search" as const, query }] });
const readHits = (input: AgentTurnInput, count: number) => {
  const hits = toolMessages(input).flatMap((message) => message.hits ?? []);
  return succeed({
    kind: "tools" as const,
    calls: hits.slice(0, count).map((hit, index) => ({ id: `r${index}`, tool: "read" as const, hit: hit.handle })),
  });
};

/** Answers with the first sentence of each read source's first passage, plus an invented citation. */
const answerFromReads = (input: AgentTurnInput) => {
  const sources = toolMessages(input).flatMap((message) => (message.source ? [message.source] : []));
  const statements = sources.flatMap((source) => {
    const chunk = source.chunks[0];
    return chunk ? [{ text: `${chunk.text.split(". ")[0]}.`, sourceId: source.id, chunkIds: [chunk.id] }] : [];
  });
  return succeed({
    kind: "answer" as const,
    answer: {
      statements: [...statements, { text: "Made up by the model.", sourceId: "s_999", chunkIds: ["s_999.p01"] }],
      gaps: [{ text: "The sources give no prices." }],
    },
  });
};

describe("the simple strategy", () => {
  it("searches, reads and answers; each read is persisted before the model sees it; invalid citations are dropped", async () => {
    const model = new ScriptedModel()
      .onStep(async () => search("cathode energy"))
      .onStep(async (input) => readHits(input, 2))
      .onStep(async (input) => answerFromReads(input));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(simple(fixture));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("synthesized");
    const doc = report(fixture);
    expect(doc.directFindings.length + doc.findings.length).toBe(2);
    expect(doc.gaps.map((gap) => gap.text)).toEqual(["The sources give no prices."]);
    const persisted = await fixture.store.listSources(outcome.runId);
    expect(persisted).toHaveLength(2);
    // The answer turn saw the two read results with Host ids, as persisted.
    const answerTurn = model.calls.at(-1);
    if (answerTurn?.call !== "step") throw new Error("expected a step");
    const read = toolMessages(answerTurn.input).filter((message) => message.tool === "read");
    expect(read.map((message) => message.source?.id)).toEqual(persisted.map((source) => source.id));
    expect(read[0]?.content).toContain(`<source id="${persisted[0]?.id}">`);
    const diagnostics = await fixture.store.listDiagnostics(outcome.runId);
    expect(diagnostics.map((item) => item.code)).toContain("fact-dropped");
    const events = await fixture.store.listEvents(outcome.runId);
    expect(events.filter((event) => event.type === "generation-finished").map((event) => event.data.purpose)).toEqual([
      "turn",
      "turn",
      "turn",
    ]);
  });

  it("refuses a read of an unknown handle and tells the model why", async () => {
    const model = new ScriptedModel()
      .onStep(async () => succeed({ kind: "tools", calls: [{ id: "x", tool: "read", hit: "h42" }] }))
      .onStep(async (input) => {
        expect(toolMessages(input)[0]?.content).toContain("not a hit handle");
        return succeed({ kind: "answer", answer: { statements: [], gaps: [] } });
      });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(simple(fixture));
    model.assertConsumed();
    expect(outcome.artifactStatus).toBe("no-evidence");
    expect(await fixture.store.listSources(outcome.runId)).toEqual([]);
  });

  it("offers only the answer on the last turn, within the turn budget", async () => {
    const model = new ScriptedModel()
      .onStep(async (input) => {
        expect(input.mustAnswer).toBe(false);
        return search("cathode");
      })
      .onStep(async (input) => {
        expect(input.mustAnswer).toBe(true);
        return answerFromReads(input);
      });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(simple(fixture, { maxTurns: 2 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
  });

  it("a failed turn ends the loop; the Host publishes what was persisted", async () => {
    const model = new ScriptedModel()
      .onStep(async () => search("cathode"))
      .onStep(async (input) => readHits(input, 3))
      .onStep(async () => fail("transport"));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(simple(fixture));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("source-backed");
    expect(report(fixture).sourceCards.length).toBe(3);
  });

  it("a turn that hangs is cut off at the model-call limit", async () => {
    const model = new ScriptedModel().onStep(
      (_input, options) =>
        new Promise((resolve) => {
          // Ignores its signal on purpose: the Host must not wait for it.
          setTimeout(() => resolve(search("never")), 60_000).unref();
          void options;
        }),
    );
    const fixture = make(model);
    const outcome = await fixture.runtime.run(simple(fixture, { modelCallTimeoutMs: 200 }));
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("no-evidence");
    const events = await fixture.store.listEvents(outcome.runId);
    const failed = events.find((event) => event.type === "generation-failed");
    expect(failed?.data.kind).toBe("timeout");
  });

  it("after a crash, resumes with the conversation rebuilt from persisted searches and sources", async () => {
    const first = new ScriptedModel()
      .onStep(async () => search("cathode energy"))
      .onStep(async (input) => readHits(input, 2))
      .onStep(async () => fail("transport"));
    const fixture = make(first);
    const crashed = await fixture.runtime.run(simple(fixture));
    // Make the finished run look interrupted, as after a SIGKILL before publication.
    await fixture.store.updateRun(crashed.runId, { status: "running" });
    const second = new ScriptedModel().onStep(async (input) => {
      const reads = toolMessages(input).filter((message) => message.tool === "read");
      expect(reads).toHaveLength(2);
      expect(toolMessages(input).filter((message) => message.tool === "search")).toHaveLength(1);
      return answerFromReads(input);
    });
    const outcome = await fixture.withModel(second).resume(crashed.runId);
    second.assertConsumed();
    expect(outcome.artifactStatus).toBe("synthesized");
    expect(await fixture.store.listSources(crashed.runId)).toHaveLength(2);
  });
});
