import { err, ok } from "../result.js";
import { findQuestion } from "./frontier.js";
import { addContradiction, appendClaim, registerSource, updateClaim } from "./ledger.js";
import {
  assignPassages,
  claimLine,
  currentQuestion,
  ensureSources,
  type Handlers,
  mergeMutations,
  reject,
  reopenCiting,
  type Step,
  spawnContradictionQuestion,
  withFrontier,
} from "./tool-support.js";
import { EMPTY_MUTATION, type Rejection } from "./types.js";

export const NOTES_HANDLERS: Handlers<"notes_append" | "notes_update" | "notes_scratch"> = {
  notes_append(investigation, args, ctx) {
    let current = investigation;
    let mutation = EMPTY_MUTATION;
    const lines: string[] = [];
    const questionId = currentQuestion(investigation)?.id ?? null;
    for (const [index, entry] of args.entries.entries()) {
      const where = `entry ${index + 1}`;
      const fail = (rejection: Rejection): Step =>
        err({ rule: rejection.rule, message: `${where}: ${rejection.message} Nothing was appended.` });
      if (args.section === "unverified" || args.section === "datapoints") {
        if (entry.question_id !== undefined && !findQuestion(current.frontier, entry.question_id)) {
          return fail({
            rule: "unknown-question",
            message: `There is no question ${entry.question_id}: question_id names the question the finding answers.`,
          });
        }
        const sourceIds = entry.source_ids ?? [];
        const sources = ensureSources(current, sourceIds, ctx);
        if (!sources.ok) return fail(sources.error);
        // With no source ids appendClaim refuses the entry for that, the first thing to fix.
        const passages = sourceIds.length > 0 ? assignPassages(entry.passage_ids ?? [], sourceIds, ctx) : ok(new Map());
        if (!passages.ok) return fail(passages.error);
        const appended = appendClaim(
          sources.value.investigation.ledger,
          {
            kind: args.section === "datapoints" ? "datapoint" : "claim",
            text: entry.text ?? "",
            ...(entry.value ? { value: entry.value } : {}),
            ...(entry.unit ? { unit: entry.unit } : {}),
            questionId: entry.question_id ?? questionId,
            sourceIds,
            chunkIds: passages.value,
            ...(entry.check ? { check: entry.check } : {}),
          },
          { now: ctx.now, actor: "agent" },
        );
        if (!appended.ok) return fail(appended.error);
        current = { ...sources.value.investigation, ledger: appended.value.ledger };
        mutation = mergeMutations(mergeMutations(mutation, sources.value.mutation), appended.value.mutation);
        lines.push(`${claimLine(appended.value.claim)}${passagesNote(entry.passage_ids ?? [])}`);
      } else if (entry.passage_ids !== undefined) {
        return fail({
          rule: "passage",
          message: `passage_ids belong to unverified claims and datapoints, not to ${args.section} entries: drop them here.`,
        });
      } else if (args.section === "sources") {
        const host = ctx.hostSources.find((source) => source.id === entry.source_id);
        if (!host)
          return fail({
            rule: "unknown-source",
            message: `${entry.source_id ?? "(no source_id)"} is not a source this run has read (read sources: ${
              ctx.hostSources.map((source) => source.id).join(", ") || "none yet"
            }).`,
          });
        const registered = registerSource(current.ledger, { ...host, note: entry.note ?? host.note });
        if (!registered.ok) return fail(registered.error);
        current = { ...current, ledger: registered.value.ledger };
        mutation = mergeMutations(mutation, registered.value.mutation);
        lines.push(`[${host.id}] ${host.title}${entry.note ? ` — ${entry.note}` : ""}`);
      } else {
        if (!entry.claim_id || !entry.other_claim_id) {
          return fail({ rule: "contradiction", message: "A contradiction names claim_id and other_claim_id." });
        }
        const spawned = spawnContradictionQuestion(
          current,
          {
            question: `Which holds: ${entry.claim_id} or ${entry.other_claim_id}?${entry.text ? ` ${entry.text}` : ""}`,
            parentId: questionId,
            causedBy: entry.claim_id,
            priority: 0.9,
          },
          ctx,
        );
        if (!spawned.ok) return fail(spawned.error);
        const added = addContradiction(current.ledger, entry.claim_id, entry.other_claim_id, spawned.value.question.id);
        if (!added.ok) return fail(added.error);
        current = { ...withFrontier(current, spawned.value.frontier), ledger: added.value.ledger };
        mutation = mergeMutations(mergeMutations(mutation, spawned.value.mutation), added.value.mutation);
        lines.push(
          `${entry.claim_id} vs ${entry.other_claim_id} -> ${spawned.value.question.id} (P ${spawned.value.question.priority.toFixed(2)})`,
        );
      }
    }
    return ok({ investigation: current, mutation, text: `Appended to ${args.section}:\n${lines.join("\n")}` });
  },

  notes_update(investigation, args, ctx) {
    const claim = investigation.ledger.claims.find((row) => row.id === args.id);
    if (!claim) return reject("unknown-claim", `${args.id} is not a recorded claim or datapoint.`);
    let current = investigation;
    let mutation = EMPTY_MUTATION;
    let chunkIds: readonly string[] = [];
    if (args.add_source) {
      const sources = ensureSources(current, [args.add_source.source_id], ctx);
      if (!sources.ok) return sources;
      const passages = assignPassages(args.add_source.passage_ids ?? [], [args.add_source.source_id], ctx);
      if (!passages.ok) return passages;
      chunkIds = passages.value.get(args.add_source.source_id) ?? [];
      current = sources.value.investigation;
      mutation = sources.value.mutation;
    }
    const updated = updateClaim(
      current.ledger,
      current.challenges,
      {
        id: args.id,
        ...(args.status ? { status: args.status } : {}),
        ...(args.add_source
          ? { addSource: { sourceId: args.add_source.source_id, stance: args.add_source.stance, chunkIds } }
          : {}),
        ...(args.independence ? { independence: args.independence } : {}),
        ...(args.reason ? { retractReason: args.reason } : {}),
      },
      current.config,
      { now: ctx.now, actor: "agent" },
    );
    if (!updated.ok) return updated;
    current = { ...current, ledger: updated.value.ledger };
    mutation = mergeMutations(mutation, updated.value.mutation);
    const lines = [`${claimLine(updated.value.claim)}${passagesNote(chunkIds)}`];
    if (updated.value.refuted) {
      const reopened = reopenCiting(current, args.id, args.id, ctx);
      current = reopened.investigation;
      mutation = mergeMutations(mutation, reopened.mutation);
      if (reopened.reopened.length > 0)
        lines.push(`Reopened by code (they cite ${args.id}): ${reopened.reopened.join(", ")}`);
    }
    return ok({ investigation: current, mutation, text: lines.join("\n") });
  },

  notes_scratch(investigation, args) {
    return ok({
      investigation: { ...investigation, scratch: args.text },
      mutation: EMPTY_MUTATION,
      text: `Scratch replaced (${args.text.length} characters).`,
    });
  },
};

/** The passages a reply confirms, when there are any. */
const passagesNote = (passageIds: readonly string[]): string =>
  passageIds.length === 0 ? "" : ` (passages: ${[...new Set(passageIds)].join(", ")})`;
