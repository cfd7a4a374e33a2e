/**
 * The investigative strategy driven by a scripted model (a queue of tool calls): the two
 * loops, the gates as the model reads them, breakers and the reserve, forced extraction,
 * eviction only after commit, the plain-text reminder, reopen and the forced finalize_report.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ActState } from "../../core/investigative/loop-tools.js";
import { TURN_EVENT, type TurnEventData } from "../../core/investigative/turn-events.js";
import type { InvestigationConfig } from "../../core/investigative/types.js";
import type { ActInput, ActTurn, Generation } from "../../ports/model.js";
import type { FakeDocument } from "../../testing/fake-scope.js";
import { publishedReport } from "../../testing/read-report.js";
import { type RuntimeFixture, runtimeFixture } from "../../testing/runtime-fixture.js";
import { fail, ScriptedModel, succeed } from "../../testing/scripted-model.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

const QUESTION = "How much energy does cell A store?";

const DOCUMENTS: FakeDocument[] = [
  { path: "a/spec.md", title: "Cell A specification", text: "Cell A stores 5 Wh of energy. It weighs 40 g." },
  {
    path: "b/review.md",
    title: "Cell A review",
    text: "In our tests cell A stores 5 Wh of energy at room temperature.",
  },
  { path: "c/other.md", title: "Cell B notes", text: "Cell B stores 7 Wh. Cell B is heavier than cell A." },
  {
    path: "d/long.md",
    title: "Cell A long report",
    text: `Cell A energy report. ${"Filler about cell A casing and packaging. ".repeat(200)}`,
  },
];

const LIGHT: Partial<InvestigationConfig> = { minSources: 2, minDomains: 2 };

function make(model: ScriptedModel, documents = DOCUMENTS): RuntimeFixture {
  const fixture = runtimeFixture({ documents }, undefined, model);
  fixtures.push(fixture);
  return fixture;
}

const investigative = (fixture: RuntimeFixture, investigation: Partial<InvestigationConfig> = LIGHT, budgets = {}) => ({
  ...fixture.request(QUESTION, { maxSearchCalls: 20, maxFetchAttempts: 20, maxSources: 12, maxTurns: 60, ...budgets }),
  strategy: "investigative" as const,
  investigation,
});

type Call = { name: string; args: unknown };
let counter = 0;
const turn = (...calls: Call[]): Generation<ActTurn> =>
  succeed({ text: "", calls: calls.map((call) => ({ id: `call_${++counter}`, ...call })) });
const text = (words: string): Generation<ActTurn> => succeed({ text: words, calls: [] });
const state = (input: ActInput): ActState => input.state as ActState;
const handleOf = (input: ActInput, path: string): string => {
  const hit = state(input)
    .lastResults.flatMap((result) => result.hits ?? [])
    .find((candidate) => candidate.location.endsWith(path));
  if (!hit) throw new Error(`no hit for ${path} in the previous turn`);
  return hit.handle;
};
const sourceOf = (input: ActInput, path: string): string => {
  const source = state(input).investigation.ledger.sources.find((candidate) => candidate.location.endsWith(path));
  if (!source) throw new Error(`no source for ${path}`);
  return source.id;
};
const lastText = (input: ActInput): string =>
  state(input)
    .lastResults.map((result) => result.text)
    .join("\n");

function report(fixture: RuntimeFixture) {
  return publishedReport(join(fixture.outDir, "report.json"));
}

async function turnEvents(fixture: RuntimeFixture, runId: number): Promise<TurnEventData[]> {
  return (await fixture.store.listEvents(runId))
    .filter((event) => event.type === TURN_EVENT)
    .map((event) => event.data as unknown as TurnEventData);
}

const expand = () =>
  turn({
    name: "add_question",
    args: {
      parent_id: "q_001",
      question: "What energy does cell A store, in Wh?",
      rationale: "the objective asks for it",
      priority: 0.9,
      validation_criteria: "a passage stating cell A's energy in Wh",
      target_sources: [],
    },
  });

/** The scripted investigation of cell A, up to a verified claim and its resolved question. */
function verifiedPath(model: ScriptedModel): ScriptedModel {
  return model
    .onAct(async () => expand())
    .onAct(async () => turn({ name: "search", args: { query: "cell A energy Wh" } }))
    .onAct(async (input) =>
      turn(
        { name: "fetch_page", args: { hit: handleOf(input, "a/spec.md") } },
        { name: "fetch_page", args: { hit: handleOf(input, "b/review.md") } },
      ),
    )
    .onAct(async (input) =>
      turn(
        {
          name: "notes_append",
          args: {
            section: "unverified",
            entries: [
              {
                text: "Cell A stores 5 Wh of energy.",
                source_ids: [sourceOf(input, "a/spec.md")],
                passage_ids: [`${sourceOf(input, "a/spec.md")}.p01`],
                question_id: "q_002",
                check: "a second source",
              },
            ],
          },
        },
        {
          name: "notes_append",
          args: {
            section: "sources",
            entries: [{ source_id: sourceOf(input, "b/review.md"), note: "measures the same figure: verifies c_001" }],
          },
        },
      ),
    )
    .onAct(async () =>
      turn({
        name: "challenge",
        args: {
          target_type: "claim",
          target_id: "c_001",
          negation: "Cell A stores much more or less than 5 Wh",
          strategy: "discrepancy",
          expected_if_false: "a measurement of cell A giving another figure",
          query: "cell A measured capacity different figure",
        },
      }),
    )
    .onAct(async () => turn({ name: "search", args: { query: "cell A measured capacity different figure" } }))
    .onAct(async (input) =>
      turn(
        {
          name: "notes_update",
          args: {
            id: "c_001",
            add_source: {
              source_id: sourceOf(input, "b/review.md"),
              stance: "supports",
              passage_ids: [`${sourceOf(input, "b/review.md")}.p01`],
            },
            independence: "a specification and an independent review, different documents",
          },
        },
        {
          name: "record_challenge_result",
          args: {
            challenge_id: "ch_001",
            outcome: "survived",
            evidence: "the review measures the same 5 Wh",
            source_ids: [sourceOf(input, "b/review.md")],
          },
        },
        { name: "notes_update", args: { id: "c_001", status: "VERIFIED" } },
      ),
    )
    .onAct(async () =>
      turn({
        name: "resolve_question",
        args: {
          id: "q_002",
          answer: "Cell A stores 5 Wh.",
          claim_ids: ["c_001"],
          reason: "the claim itself was challenged and verified",
        },
      }),
    );
}

/** A report of nothing established: no item, no gap. */
const finalizeNothing = () =>
  turn({ name: "finalize_report", args: { summary: "Nothing was established.", items: [], gaps: [], keyClaims: [] } });

const finalize = (summary = "Cell A stores 5 Wh.") =>
  turn({
    name: "finalize_report",
    args: {
      summary,
      items: [{ text: "Cell A stores 5 Wh of energy.", claimIds: ["c_001"], sourceIds: [] }],
      gaps: [],
      keyClaims: [{ claimId: "c_001", status: "VERIFIED" }],
    },
  });

describe("the investigative strategy", () => {
  it("explores, verifies a claim, ends on an exhausted frontier and publishes the verified finding", async () => {
    const model = verifiedPath(new ScriptedModel()).onAct(async (input) => {
      expect(state(input).phase).toBe("synthesis");
      expect(input.tools.map((tool) => tool.name)).toEqual(["notes_read", "frontier_view", "finalize_report"]);
      return finalize();
    });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("synthesized");
    const doc = report(fixture);
    const texts = [...doc.directFindings, ...doc.findings].map((finding) => finding.text);
    expect(texts).toEqual(["Cell A stores 5 Wh of energy."]);
    // Verified, with both sources that state it and the challenge it survived, all openable in the report.
    const verification = [...doc.directFindings, ...doc.findings][0]?.verification;
    expect(verification?.status).toBe("verified");
    const numbers = new Map(doc.sources.map((source) => [source.path, source.number]));
    expect(verification?.supports.map((citation) => citation.number).sort()).toEqual(
      [numbers.get("a/spec.md"), numbers.get("b/review.md")].sort(),
    );
    expect(verification?.challenge).toContain("“cell A measured capacity different figure”");
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.phase).toBe("synthesis");
    expect(run?.stopReason).toBe("frontier_exhausted");
    const events = await fixture.store.listEvents(outcome.runId);
    const states = events.filter((event) => event.type === "research-state").map((event) => event.data.state);
    expect(states).toEqual(["planning", "selecting", "challenging", "selecting", "synthesizing"]);
    expect(await turnEvents(fixture, outcome.runId)).toHaveLength(9);
    // The code selected q_002 (actor code), the agent resolved it.
    const investigation = await fixture.store.loadInvestigation(outcome.runId);
    const selected = investigation.transitions.find((row) => row.questionId === "q_002" && row.trigger === "selected");
    expect(selected?.actor).toBe("code");
    expect(investigation.claims.find((claim) => claim.id === "c_001")?.status).toBe("VERIFIED");
  });

  it("publishes a finalize_report item naming a VERIFIED claim as unverified when it states another name or figure", async () => {
    const model = verifiedPath(new ScriptedModel()).onAct(async () =>
      turn({
        name: "finalize_report",
        args: {
          summary: "Cell A stores 5 Wh.",
          items: [
            { text: "Panasonic rates cell A at 5 Wh of energy.", claimIds: ["c_001"], sourceIds: [] },
            { text: "Cell A stores 5 Wh of energy.", claimIds: ["c_001"], sourceIds: [] },
          ],
          gaps: [],
          keyClaims: [{ claimId: "c_001", status: "VERIFIED" }],
        },
      }),
    );
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture));
    model.assertConsumed();
    const doc = report(fixture);
    expect(
      [...doc.directFindings, ...doc.findings].map((finding) => [finding.text, finding.verification.status]),
    ).toEqual([
      // The finding that answers the question comes first (the answer block's direct finding).
      ["Cell A stores 5 Wh of energy.", "verified"],
      ["Panasonic rates cell A at 5 Wh of energy.", "unverified"],
    ]);
    const diagnostics = await fixture.store.listDiagnostics(outcome.runId);
    expect(diagnostics.filter((item) => item.code === "fact-unverified").map((item) => item.message)).toEqual([
      "its text writes “Panasonic”, which the passages of its VERIFIED claims do not: published as unverified",
    ]);
  });

  it("returns the exploration gate's refusal to the model, reminds it after plain text, and a breaker cuts exploration short into synthesis", async () => {
    // max_iterations 6: exploration may use floor(0.85 × 6) = 5 turns, synthesis the sixth, forced to finalize_report.
    const model = new ScriptedModel()
      .onAct(async () => text("I will start by thinking about cells."))
      .onAct(async (input) => {
        const last = input.messages.at(-1);
        expect(last?.role).toBe("user");
        expect(last && "content" in last ? last.content : "").toContain("You answered without a tool");
        expect(state(input).reminder).toContain("open questions: [q_001]");
        return expand();
      })
      .onAct(async () => turn({ name: "finish_exploration", args: {} }))
      .onAct(async (input) => {
        const refusal = lastText(input);
        expect(refusal).toContain("Refused (exploration gate): missing");
        expect(refusal).toContain("1 actionable pending question(s) with priority >= 0.50 (gate_priority): q_002");
        expect(refusal).toContain("the gate needs 2 (min_sources)");
        expect(refusal).toContain("The conclusion has no closed challenge with outcome survived");
        return turn({ name: "search", args: { query: "cell A energy Wh" } });
      })
      .onAct(async (input) => turn({ name: "fetch_page", args: { hit: handleOf(input, "a/spec.md") } }))
      .onAct(async (input) => {
        expect(state(input).phase).toBe("synthesis");
        expect(input.toolChoice).toEqual({ tool: "finalize_report" });
        return finalizeNothing();
      });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxIterations: 6 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.stopReason).toBe("breaker:iterations");
    expect(run?.phase).toBe("synthesis");
    const notes = readFileSync(
      join(fixture.notesDir, readdirSync(fixture.notesDir).find((name) => name.endsWith(".md")) ?? ""),
      "utf8",
    );
    expect(notes).toContain("The investigation was cut short by breaker: iterations; still pending: q_002");
    const gaps = report(fixture).gaps.map((gap) => gap.text);
    expect(
      gaps.some(
        (gap) => gap.startsWith("Still open: “") && gap.includes("the investigation reached its limit of turns"),
      ),
    ).toBe(true);
    const phases = (await fixture.store.listEvents(outcome.runId)).filter(
      (event) => event.type === "investigative-phase",
    );
    expect(phases.map((event) => event.data.stopReason ?? "")).toEqual(["", "breaker:iterations", ""]);
  });

  it("fails the run with the breaker named when synthesis exhausts its reserve; the finalization gate's refusal names the bad citation", async () => {
    // max_iterations 4: three exploration turns, one synthesis turn (forced), then nothing is left.
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(async () => turn({ name: "frontier_view", args: {} }))
      .onAct(async () => turn({ name: "frontier_view", args: {} }))
      .onAct(async () =>
        turn({
          name: "finalize_report",
          args: {
            summary: "Cell A stores 5 Wh.",
            items: [{ text: "Cell A stores 5 Wh.", claimIds: ["c_009"], sourceIds: ["s_999"] }],
            gaps: [],
            keyClaims: [{ claimId: "c_009", status: "VERIFIED" }],
          },
        }),
      );
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxIterations: 4 }));
    model.assertConsumed();
    expect(outcome.status).toBe("failed");
    expect(outcome.failure).toContain(
      "Synthesis exhausted max_iterations (4 turns of 4 turns) without finalize_report",
    );
    expect(outcome.failure).toContain("(breaker: iterations)");
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.error).toContain("breaker: iterations");
    expect(run?.stopReason).toBe("breaker:iterations");
    const last = (await turnEvents(fixture, outcome.runId)).at(-1);
    expect(last?.calls[0]?.ok).toBe(false);
    expect(last?.calls[0]?.text).toContain("Refused (finalization gate)");
    expect(last?.calls[0]?.text).toContain("s_999");
    expect(last?.calls[0]?.text).toContain("c_009");
    // The Host still published what was persisted.
    expect(outcome.artifactStatus).not.toBe("");
  });

  it("the token breaker moves to synthesis at its share and the last affordable turn is forced to finalize_report", async () => {
    // 150 tokens a turn, max 1 000: exploration stops at 850 (6 turns = 900), synthesis has the rest.
    const model = new ScriptedModel().onAct(async () => expand());
    for (let index = 0; index < 5; index++) model.onAct(async () => turn({ name: "frontier_view", args: {} }));
    model.onAct(async (input) => {
      expect(state(input).phase).toBe("synthesis");
      expect(input.toolChoice).toEqual({ tool: "finalize_report" });
      return finalizeNothing();
    });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxTotalTokens: 1_000 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    expect((await fixture.store.getRun(outcome.runId))?.stopReason).toBe("breaker:tokens");
  });

  it("the cost breaker counts the priced turns and moves to synthesis at its share", async () => {
    const priced = new ScriptedModel({ usdPerToken: 0.0001 }).onAct(async () => expand());
    // 150 tokens = $0.015 a turn; max $0.05 → exploration stops at $0.0425 (3 turns = $0.045).
    for (let index = 0; index < 2; index++) priced.onAct(async () => turn({ name: "frontier_view", args: {} }));
    priced.onAct(async (input) => {
      expect(state(input).phase).toBe("synthesis");
      return finalizeNothing();
    });
    const fixture = make(priced);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxCostUsd: 0.05 }));
    priced.assertConsumed();
    expect((await fixture.store.getRun(outcome.runId))?.stopReason).toBe("breaker:cost");
    const events = await turnEvents(fixture, outcome.runId);
    expect(events).toHaveLength(4);
    for (const event of events) expect(event.usage.costUsd).toBeCloseTo(0.015, 10);
  });

  it("the wall clock ends the run as any run ends at its deadline, with the breaker recorded", async () => {
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(
        (_, options) =>
          new Promise((resolve) => {
            // Never answers: the Host gives up on the call at the deadline.
            options.signal?.addEventListener("abort", () => resolve(fail("timeout")), { once: true });
          }),
      );
    const fixture = make(model);
    const outcome = await fixture.runtime.run(
      investigative(fixture, LIGHT, { wallClockMs: 1_500, publishReserveMs: 500, modelCallTimeoutMs: 60_000 }),
    );
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.stopReason).toBe("breaker:wall_clock");
  });

  it("forces extraction of a long page with only the notes tools; a page nothing was taken from is noted and never shown again", async () => {
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(async () => turn({ name: "search", args: { query: "cell A energy report" } }))
      .onAct(async (input) => turn({ name: "fetch_page", args: { hit: handleOf(input, "d/long.md") } }))
      .onAct(async (input) => {
        expect(state(input).mode.kind).toBe("extraction");
        expect(input.tools.map((tool) => tool.name)).toEqual(["notes_append", "notes_update", "notes_scratch"]);
        expect(input.toolChoice).toBe("required");
        expect(input.system).toContain("Extract what matters for question q_002 from this page");
        expect(state(input).pendingPages.map((page) => page.location)).toEqual(["d/long.md"]);
        return turn({ name: "notes_scratch", args: { text: "The long report is about packaging." } });
      })
      .onAct(async (input) => {
        const source = sourceOf(input, "d/long.md");
        expect(state(input).investigation.ledger.sources.find((known) => known.id === source)?.note).toBe(
          "read, nothing relevant",
        );
        expect(state(input).mode.kind).toBe("normal");
        return turn({ name: "search", args: { query: "cell A casing packaging" } });
      })
      .onAct(async (input) => turn({ name: "fetch_page", args: { hit: handleOf(input, "d/long.md") } }))
      .onAct(async (input) => {
        const source = sourceOf(input, "d/long.md");
        expect(lastText(input)).toContain("Already read (read, nothing relevant)");
        // The page's passages left the prompt with their turn: only the scratchpad remembers.
        expect(JSON.stringify(input.messages)).not.toContain(`[${source}.p01]`);
        return turn({ name: "frontier_view", args: {} });
      })
      .onAct(async () => finalizeNothing());
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxIterations: 9 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    const events = await turnEvents(fixture, outcome.runId);
    expect(events[3]?.mode).toBe("extraction");
    expect(events[3]?.commits).toEqual([{ turn: 3, callId: events[2]?.calls[0]?.id, how: "nothing-relevant" }]);
    const states = (await fixture.store.listEvents(outcome.runId)).filter((event) => event.type === "research-state");
    expect(states.map((event) => event.data.state)).toContain("extracting");
  });

  it("never evicts an uncommitted page: it stays in the prompt past keep_turns until extracted, then leaves", async () => {
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(async () => turn({ name: "search", args: { query: "cell A energy Wh" } }))
      .onAct(async (input) => turn({ name: "fetch_page", args: { hit: handleOf(input, "a/spec.md") } }))
      .onAct(async (input) => {
        expect(JSON.stringify(input.messages)).toContain("[s_001.p01] Cell A stores 5 Wh");
        return turn({ name: "frontier_view", args: {} });
      })
      .onAct(async (input) => {
        // keep_turns 1: the page's turn is out of the window, but nothing was taken from it yet.
        expect(state(input).mode.kind).toBe("extraction");
        expect(JSON.stringify(input.messages)).toContain("[s_001.p01] Cell A stores 5 Wh");
        return turn({
          name: "notes_append",
          args: {
            section: "unverified",
            entries: [
              {
                text: "Cell A stores 5 Wh of energy.",
                source_ids: ["s_001"],
                passage_ids: ["s_001.p01"],
                question_id: "q_002",
              },
            ],
          },
        });
      })
      .onAct(async (input) => {
        expect(JSON.stringify(input.messages)).not.toContain("[s_001.p01] Cell A stores 5 Wh");
        const scratchpad = input.messages[1];
        expect(scratchpad && "content" in scratchpad ? scratchpad.content : "").toContain(
          "Cell A stores 5 Wh of energy.",
        );
        return turn({ name: "frontier_view", args: {} });
      })
      .onAct(async (input) => {
        expect(state(input).phase).toBe("synthesis");
        return turn({
          name: "finalize_report",
          args: {
            summary: "Cell A stores 5 Wh, by one source.",
            items: [{ text: "Cell A stores 5 Wh of energy.", claimIds: ["c_001"], sourceIds: ["s_001"] }],
            gaps: [],
            keyClaims: [{ claimId: "c_001", status: "UNVERIFIED" }],
          },
        });
      });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, keepTurns: 1, maxIterations: 8 }));
    model.assertConsumed();
    expect(outcome.artifactStatus).toBe("synthesized");
    const doc = report(fixture);
    // An unverified claim may be published only marked as such.
    expect(
      [...doc.directFindings, ...doc.findings].map((finding) => [finding.text, finding.verification.status]),
    ).toEqual([["Cell A stores 5 Wh of energy.", "unverified"]]);
  });

  it("a refuted challenge reopens the question that cited the claim and spawns a contradiction question, which code selects", async () => {
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(async () => turn({ name: "search", args: { query: "cell A energy Wh" } }))
      .onAct(async (input) =>
        turn(
          { name: "fetch_page", args: { hit: handleOf(input, "a/spec.md") } },
          { name: "fetch_page", args: { hit: handleOf(input, "b/review.md") } },
        ),
      )
      .onAct(async () =>
        turn(
          {
            name: "notes_append",
            args: {
              section: "unverified",
              entries: [
                {
                  text: "Cell A stores 5 Wh of energy.",
                  source_ids: ["s_001"],
                  passage_ids: ["s_001.p01"],
                  question_id: "q_002",
                },
              ],
            },
          },
          {
            name: "notes_append",
            args: { section: "sources", entries: [{ source_id: "s_002", note: "a review of cell A" }] },
          },
        ),
      )
      .onAct(async () =>
        turn({
          name: "resolve_question",
          args: {
            id: "q_002",
            answer: "Cell A stores 5 Wh.",
            claim_ids: ["c_001"],
            reason: "one specification states it",
          },
        }),
      )
      .onAct(async (input) => {
        // The final verification check queued c_001 and code selected it.
        expect(state(input).currentQuestionId).toBe("q_003");
        return turn({
          name: "challenge",
          args: {
            target_type: "claim",
            target_id: "c_001",
            negation: "Cell A stores a different amount than 5 Wh",
            strategy: "discrepancy",
            expected_if_false: "a test of cell A with another figure",
            query: "cell A tested lower figure room temperature",
          },
        });
      })
      .onAct(async () => turn({ name: "search", args: { query: "cell A tested lower figure room temperature" } }))
      .onAct(async () =>
        turn({
          name: "record_challenge_result",
          args: {
            challenge_id: "ch_001",
            outcome: "refuted",
            evidence: "the review contradicts the specification",
            source_ids: ["s_002"],
          },
        }),
      )
      .onAct(async (input) => {
        const investigation = state(input).investigation;
        const q2 = investigation.frontier.questions.find((question) => question.id === "q_002");
        expect(q2?.status === "pending" || q2?.status === "in_progress").toBe(true);
        const reopened = investigation.frontier.transitions.find(
          (row) => row.questionId === "q_002" && row.trigger === "reopened",
        );
        expect(reopened?.causedBy).toBe("ch_001");
        expect(investigation.ledger.claims.find((claim) => claim.id === "c_001")?.status).toBe("REFUTED");
        return turn({ name: "frontier_view", args: {} });
      })
      .onAct(async () => finalizeNothing());
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxIterations: 11 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    const states = (await fixture.store.listEvents(outcome.runId)).filter((event) => event.type === "research-state");
    expect(states.map((event) => event.data.state)).toEqual(
      expect.arrayContaining(["planning", "selecting", "verifying", "challenging", "synthesizing"]),
    );
  });

  it("finalize_report may return to exploration max_reopens times; then it is refused and the report is written", async () => {
    const model = verifiedPath(new ScriptedModel())
      .onAct(async () =>
        turn({
          name: "finalize_report",
          args: { reopen: { question_id: "q_002", why: "the review may test another cell" } },
        }),
      )
      .onAct(async (input) => {
        expect(state(input).phase).toBe("exploration");
        expect(state(input).currentQuestionId).toBe("q_002");
        return turn({
          name: "resolve_question",
          args: { id: "q_002", answer: "Cell A stores 5 Wh.", claim_ids: ["c_001"], reason: "checked again" },
        });
      })
      .onAct(async (input) => {
        expect(state(input).reopensLeft).toBe(0);
        return turn({ name: "finalize_report", args: { reopen: { question_id: "q_002", why: "once more" } } });
      })
      .onAct(async (input) => {
        expect(lastText(input)).toContain("no return to exploration is left (max_reopens)");
        return finalize();
      });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture));
    model.assertConsumed();
    expect(outcome.artifactStatus).toBe("synthesized");
    const phases = (await fixture.store.listEvents(outcome.runId)).filter(
      (event) => event.type === "investigative-phase",
    );
    expect(phases.map((event) => event.data.phase)).toEqual([
      "exploration",
      "synthesis",
      "exploration",
      "synthesis",
      "finished",
    ]);
  });

  it("refuses unknown tools, tools not offered in the phase, malformed arguments and a search before the expansion, saying why", async () => {
    const model = new ScriptedModel()
      .onAct(async () =>
        turn(
          { name: "shell", args: { command: "rm -rf /" } },
          { name: "finalize_report", args: { summary: "x", items: [], gaps: [], keyClaims: [] } },
          { name: "add_question", args: { parent_id: "q_001", question: "x?", priority: "high" } },
          { name: "search", args: { query: "cell A" } },
        ),
      )
      .onAct(async (input) => {
        const [unknown, notOffered, malformed, early] = state(input).lastResults;
        expect(early?.text).toContain("broad query expansion first");
        expect(unknown?.text).toContain("shell is not offered this turn");
        expect(notOffered?.text).toContain("finalize_report is not offered this turn (exploration)");
        expect(malformed?.ok).toBe(false);
        expect(malformed?.text).toContain("priority");
        return turn({ name: "frontier_view", args: {} });
      })
      .onAct(async () => finalizeNothing());
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxIterations: 3 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
  });

  it("enforces max_attempts per question in code: a further search on it is refused, a challenge's query still runs", async () => {
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(async () => turn({ name: "search", args: { query: "cell A energy Wh" } }))
      .onAct(async () => turn({ name: "search", args: { query: "cell A capacity datasheet" } }))
      .onAct(async (input) => {
        expect(lastText(input)).toContain("q_002 has used its 1 attempts (max_attempts)");
        return finalizeNothing();
      });
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture, { ...LIGHT, maxAttempts: 1, maxIterations: 4 }));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    const attempts = (await fixture.store.loadInvestigation(outcome.runId)).attempts;
    expect(attempts.map((attempt) => [attempt.questionId, attempt.query, attempt.tool])).toEqual([
      ["q_002", "cell A energy Wh", "search"],
    ]);
  });

  it("forces a consolidation turn with only the notes tools when notes.md is over notes_max_tokens, once until it grows", async () => {
    const long = "A long line of planning notes about cells and their energy. ".repeat(60);
    const model = new ScriptedModel()
      .onAct(async () => expand())
      .onAct(async () => turn({ name: "notes_scratch", args: { text: long } }))
      .onAct(async (input) => {
        expect(state(input).mode.kind).toBe("consolidation");
        expect(input.tools.map((tool) => tool.name)).toEqual(["notes_append", "notes_update", "notes_scratch"]);
        expect(input.system).toContain("consolidate it before continuing");
        // Still over the budget after it, but no second consolidation until the notes grow.
        return turn({ name: "notes_scratch", args: { text: long.slice(0, long.length - 200) } });
      })
      .onAct(async (input) => {
        expect(state(input).mode.kind).toBe("normal");
        return turn({ name: "frontier_view", args: {} });
      })
      .onAct(async () => finalizeNothing());
    const fixture = make(model);
    const outcome = await fixture.runtime.run(
      investigative(fixture, { ...LIGHT, notesMaxTokens: 500, maxIterations: 5, synthesisReserve: 0.2 }),
    );
    model.assertConsumed();
    const events = await turnEvents(fixture, outcome.runId);
    expect(events.map((event) => event.mode)).toEqual(["normal", "normal", "consolidation", "normal", "normal"]);
    expect(events[2]?.notesTokensAfter).toBeGreaterThan(500);
    const states = (await fixture.store.listEvents(outcome.runId)).filter((event) => event.type === "research-state");
    expect(states.map((event) => event.data.state)).toContain("consolidating");
  });

  it("salvages a run whose model fails before any page was read: code reads what the request finds, the Host publishes it", async () => {
    const model = new ScriptedModel();
    // Three failed exploration turns end exploration; synthesis gets one more try (the failures run on).
    for (let index = 0; index < 4; index++) model.onAct(async () => fail("transport", "connection refused"));
    const fixture = make(model);
    const outcome = await fixture.runtime.run(investigative(fixture));
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("source-backed");
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.stopReason).toBe("model_failed");
    const events = await fixture.store.listEvents(outcome.runId);
    expect(events.some((event) => event.type === "salvage-started")).toBe(true);
    const sources = await fixture.store.listSources(outcome.runId);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.length).toBeLessThanOrEqual(3);
    const failed = (await turnEvents(fixture, outcome.runId)).filter((event) => event.failed !== undefined);
    expect(failed).toHaveLength(4);
  });
});

describe("an investigative follow-up", () => {
  it("reads the parent's sources its searches reach from the store (no fetch), and cites them", async () => {
    const { createOfflineModel } = await import("../../adapters/models/offline/offline-model.js");
    const fixture = runtimeFixture({ documents: DOCUMENTS }, undefined, createOfflineModel());
    fixtures.push(fixture);
    const parent = await fixture.runtime.run(investigative(fixture));
    expect(parent.status).toBe("finished");
    const carried = await fixture.store.listSources(parent.runId);
    expect(carried.map((source) => source.canonicalAnchor)).toContain("a/spec.md");

    const followUp = await fixture.runtime.run({
      ...investigative(fixture),
      question: "How much does cell A weigh?",
      outDir: join(fixture.outDir, "..", "follow-up"),
      lineage: { parentId: parent.runId, relation: "follow-up", instruction: "" },
    });
    expect(followUp.status).toBe("finished");
    const events = await fixture.store.listEvents(followUp.runId);
    const fetched = events.filter((event) => event.type === "source-fetched").map((event) => event.data.anchor);
    expect(fetched).not.toContain("a/spec.md");
    expect(events.some((event) => event.type === "source-reused" && event.data.anchor === "a/spec.md")).toBe(true);
    const doc = publishedReport(join(fixture.outDir, "..", "follow-up", "report.json"));
    const spec = carried.find((source) => source.canonicalAnchor === "a/spec.md");
    const findings = [...doc.directFindings, ...doc.findings];
    expect(findings.some((item) => /40 g/.test(item.text) && item.citations.some((c) => c.sourceId === spec?.id))).toBe(
      true,
    );
    expect(doc.lineage?.sourcesFromParent).toBeGreaterThan(0);
  });
});
