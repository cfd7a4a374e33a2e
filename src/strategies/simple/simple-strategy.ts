/**
 * The `simple` strategy: the minimal baseline every evaluation compares against (both
 * seeds). A plain tool-calling loop — search, read, answer — inside the same Host envelope,
 * budgets and publication path as the pipeline. The Host runs every tool call through
 * acquisition (a read source is durable before the model sees it), and admits the final
 * answer item by item like a synthesis. There is no bootstrap, no preliminary report and no
 * recovery step: when the loop fails, the Host publishes what was persisted.
 */

import { readResultText, refusedCallText, searchResultText } from "../../core/agent/prompt.js";
import {
  agentReadArgsSchema,
  agentSearchArgsSchema,
  answerAsSynthesis,
  answerOutputSchema,
  MAX_CALLS_PER_TURN,
} from "../../core/agent/turn.js";
import { admissionCatalog, admitSynthesis } from "../../core/synthesis/admission.js";
import { buildPacket } from "../../core/synthesis/packet.js";
import { acquire, type Candidate, search } from "../../host/acquisition.js";
import { generate } from "../../host/generation.js";
import { describeScope } from "../../host/publication.js";
import type { RunHost } from "../../host/run-host.js";
import type { AgentHit, AgentMessage, AgentToolCall, Model, PacketSource } from "../../ports/model.js";
import type { SearchCallRecord, SourceRecord } from "../../ports/store.js";
import type { Strategy, StrategyResult } from "../strategy.js";

/** Hits shown to the model per search. */
const HITS_SHOWN = 10;

interface LoopState {
  transcript: AgentMessage[];
  /** Hit handle -> what a read of it fetches. */
  hits: Map<string, Candidate & { hit: AgentHit }>;
  /** Sources as the model was shown them: the closed catalog its answer may cite. */
  shown: Map<string, PacketSource>;
  nextCall: number;
}

function producedBy(model: Model): string {
  return model.kind === "extractive"
    ? "Findings were selected by Assay's offline extractive engine in a single search-and-read pass: each one is a sentence quoted from a source. No language model wrote or checked them."
    : `Findings were given by the model ${model.name} in a tool-calling loop and checked by Assay for structure only.`;
}

/** The source as the model may read it: a bounded share of the packet budget. */
function shownSource(host: RunHost, source: SourceRecord): PacketSource {
  const { maxPacketChars, maxSources } = host.request.budgets;
  const share = Math.floor(maxPacketChars / Math.max(1, maxSources));
  const location = source.path ?? source.url ?? source.canonicalAnchor;
  const packet = buildPacket(
    host.question,
    [{ id: source.id, title: source.title, location, chunks: source.chunks }],
    share,
  );
  return packet.sources[0] ?? { id: source.id, title: source.title, location, chunks: [] };
}

function hitsOf(state: LoopState, call: SearchCallRecord): AgentHit[] {
  const shown: AgentHit[] = [];
  for (const hit of call.hits.slice(0, HITS_SHOWN)) {
    const handle = `h${state.hits.size + 1}`;
    const agentHit = { handle, title: hit.title, location: hit.anchor, snippet: hit.snippet };
    state.hits.set(handle, { anchor: hit.anchor, queryId: call.id, rank: hit.rank, hit: agentHit });
    shown.push(agentHit);
  }
  return shown;
}

const queryText = (call: SearchCallRecord): string =>
  call.query.kind === "text" ? call.query.text : call.query.pattern;

function searchMessage(state: LoopState, callId: string, record: SearchCallRecord): AgentMessage {
  const hits = record.status === "ok" ? hitsOf(state, record) : [];
  return {
    role: "tool",
    callId,
    tool: "search",
    content: searchResultText(queryText(record), hits, record.status === "ok" ? undefined : record.error || "failed"),
    hits,
  };
}

/**
 * The conversation of an interrupted run, rebuilt from what the store holds: its searches
 * and the sources they led to, in order. Nothing is fetched or searched again.
 */
function rebuild(host: RunHost, state: LoopState): void {
  for (const record of host.searchCalls()) {
    const callId = `t${state.nextCall++}`;
    state.transcript.push({ role: "assistant", calls: [{ id: callId, tool: "search", query: queryText(record) }] });
    state.transcript.push(searchMessage(state, callId, record));
    const reads = host.sources().filter((source) => source.provenance.some((item) => item.queryId === record.id));
    for (const source of reads) {
      if (state.shown.has(source.id)) continue;
      const handle = [...state.hits.values()].find(
        (entry) => entry.queryId === record.id && entry.anchor === source.requestedAnchor,
      )?.hit.handle;
      const readId = `t${state.nextCall++}`;
      const shown = shownSource(host, source);
      state.shown.set(source.id, shown);
      state.transcript.push({
        role: "assistant",
        calls: [{ id: readId, tool: "read", hit: handle ?? source.requestedAnchor }],
      });
      state.transcript.push({
        role: "tool",
        callId: readId,
        tool: "read",
        content: readResultText(shown),
        source: shown,
      });
    }
  }
}

async function runSearch(
  host: RunHost,
  state: LoopState,
  call: Extract<AgentToolCall, { tool: "search" }>,
): Promise<AgentMessage> {
  const args = agentSearchArgsSchema.safeParse({ query: call.query });
  if (!args.success)
    return {
      role: "tool",
      callId: call.id,
      tool: "search",
      content: refusedCallText("the query is empty or too long"),
    };
  const problem = host.search.checkQuery({ kind: "text", text: args.data.query });
  if (problem) {
    await host.diagnose("agent", "query-refused", problem, { query: args.data.query });
    return { role: "tool", callId: call.id, tool: "search", content: refusedCallText(problem) };
  }
  const record = await search(host, { kind: "text", text: args.data.query }, "planner");
  if (!record)
    return {
      role: "tool",
      callId: call.id,
      tool: "search",
      content: refusedCallText("no searches are left in this run's budget"),
    };
  return searchMessage(state, call.id, record);
}

async function runRead(
  host: RunHost,
  state: LoopState,
  call: Extract<AgentToolCall, { tool: "read" }>,
): Promise<AgentMessage> {
  const refuse = (reason: string): AgentMessage => ({
    role: "tool",
    callId: call.id,
    tool: "read",
    content: refusedCallText(reason),
  });
  const args = agentReadArgsSchema.safeParse({ hit: call.hit });
  const entry = args.success ? state.hits.get(args.data.hit) : undefined;
  if (!entry) return refuse(`"${call.hit}" is not a hit handle from a search result`);
  const outcome = await acquire(host, entry);
  if (outcome.kind === "skipped")
    return refuse(outcome.reason === "budget" ? "no reads are left in this run's budget" : "the run's time is up");
  if (outcome.kind === "failed") return refuse("the document could not be read");
  const known = state.shown.get(outcome.source.id);
  if (known)
    return {
      role: "tool",
      callId: call.id,
      tool: "read",
      content: readResultText(known, `Already read as ${known.id}.`),
      source: known,
    };
  const shown = shownSource(host, outcome.source);
  state.shown.set(shown.id, shown);
  return { role: "tool", callId: call.id, tool: "read", content: readResultText(shown), source: shown };
}

/** An answer recorded before a crash, admitted again: no second generation for the same work. */
async function recordedAnswer(host: RunHost, model: Model, state: LoopState): Promise<StrategyResult | undefined> {
  const events = await host.store.listEvents(host.run.id);
  const recorded = events.findLast((event) => event.type === "answer-admitted" && event.data.output !== undefined);
  if (!recorded) return undefined;
  const parsed = answerOutputSchema.safeParse(recorded.data.output);
  if (!parsed.success) return undefined;
  await host.emit("answer-reused", { fromEvent: recorded.seq });
  const admitted = admitSynthesis(answerAsSynthesis(parsed.data), admissionCatalog([...state.shown.values()]));
  return { synthesis: { admitted, producedBy: producedBy(model) } };
}

export const simpleStrategy: Strategy = {
  name: "simple",
  async run(host: RunHost): Promise<StrategyResult> {
    const model = host.model;
    if (!model) return {};
    const state: LoopState = { transcript: [], hits: new Map(), shown: new Map(), nextCall: 1 };
    rebuild(host, state);
    const reused = await recordedAnswer(host, model, state);
    if (reused) return reused;
    await host.stage("loop");
    for (;;) {
      if (host.signal.aborted) return {};
      const readsLeft = Math.min(host.remaining("sources"), host.remaining("fetchAttempts"));
      const searchesLeft = host.remaining("searchCalls");
      const mustAnswer = host.remaining("turns") <= 1 || (searchesLeft === 0 && readsLeft === 0);
      const turn = await generate(host, model, "turn", (options) =>
        model.step(
          {
            question: host.question,
            language: host.request.language,
            scope: describeScope(host),
            scopeKind: host.request.scope.kind,
            transcript: state.transcript,
            searchesLeft,
            readsLeft,
            maxCallsPerTurn: MAX_CALLS_PER_TURN,
            mustAnswer,
          },
          options,
        ),
      );
      // A failed or unstarted turn ends the loop; the Host publishes what was persisted.
      if (!turn?.ok) return {};
      if (turn.value.kind === "answer") {
        const admitted = admitSynthesis(
          answerAsSynthesis(turn.value.answer),
          admissionCatalog([...state.shown.values()]),
        );
        for (const dropped of admitted.diagnostics) {
          await host.diagnose("admission", `${dropped.kind}-dropped`, dropped.reason, { itemId: dropped.itemId });
        }
        await host.emit("answer-admitted", {
          statements: admitted.facts.length,
          gaps: admitted.gaps.length,
          dropped: admitted.diagnostics.length,
          output: turn.value.answer,
        });
        return { synthesis: { admitted, producedBy: producedBy(model) } };
      }
      if (mustAnswer) {
        await host.diagnose("agent", "answer-missing", "the last turn called tools instead of answering");
        return {};
      }
      const calls = turn.value.calls.slice(0, MAX_CALLS_PER_TURN);
      state.transcript.push({ role: "assistant", calls });
      // Searches run in order (hit handles stay deterministic); reads concurrently, bounded by acquisition.
      const results = new Map<string, AgentMessage>();
      for (const call of calls) {
        if (call.tool === "search") results.set(call.id, await runSearch(host, state, call));
      }
      const reads = calls.filter((call) => call.tool === "read");
      for (const [index, message] of (await Promise.all(reads.map((call) => runRead(host, state, call)))).entries()) {
        const call = reads[index];
        if (call) results.set(call.id, message);
      }
      for (const call of calls) {
        const message = results.get(call.id);
        if (message) state.transcript.push(message);
      }
    }
  },
};
