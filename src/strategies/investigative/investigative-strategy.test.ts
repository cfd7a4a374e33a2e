/**
 * The investigative strategy driven by a scripted model (a queue of tool calls): the two
 * loops, the gates as the model reads them, breakers and the reserve, forced extraction,
 * eviction only after commit, the plain-text reminder, reopen and the forced finalize_report.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ActState } from "../../core/investigative/loop-tools.js";
import { TURN_EVENT, type TurnEventData } from "../../core/investigative/turn-events.js";
import type { InvestigationConfig } from "../../core/investigative/types.js";
import { parseReportDocument } from "../../core/report/report-document.js";
import type { ActInput, ActTurn, Generation } from "../../ports/model.js";
import type { FakeDocument } from "../../testing/fake-scope.js";
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
  const parsed = parseReportDocument(JSON.parse(readFileSync(join(fixture.outDir, "report.json"), "utf8")));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
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
    if (outcome.status !== "finished" || process.env.DEBUG_INV) {
      const run = await fixture.store.getRun(outcome.runId);
      console.log(run?.error, JSON.stringify(await fixture.store.listDiagnostics?.(outcome.runId)));
      for (const event of await turnEvents(fixture, outcome.runId))
        console.log(
          event.turn,
          event.failed,
          event.calls.map((call) => `${call.name} ${call.ok} ${call.text.slice(0, 300)}`),
        );
    }
    model.assertConsumed();
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("synthesized");
    const doc = report(fixture);
    const texts = [...doc.directFindings, ...doc.findings].map((finding) => finding.text);
    expect(texts).toEqual(["Cell A stores 5 Wh of energy."]);
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
});
