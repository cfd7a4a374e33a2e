/**
 * The web UI's "Investigation" page body (pure): a run's recorded investigation as five HTML
 * sections — the frontier tree, the transitions, the claim ledger, the challenges and the
 * notes versions. Every piece of text from the rows is escaped (model output and source text
 * are untrusted); only http(s) locations become links. No script, no inline styles: the
 * classes used are styled by `INVESTIGATION_CSS`.
 */

import { p2 } from "../../core/investigative/frontier-queries.js";
import {
  challengeStats,
  type FrontierNode,
  frontierForest,
  frontierStats,
  type OutcomeCounts,
  shorten,
} from "../../core/investigative/observability.js";
import {
  CHALLENGE_OUTCOMES,
  type Challenge,
  type Claim,
  type LedgerSource,
  QUESTION_STATUSES,
  type Question,
  type Transition,
} from "../../core/investigative/types.js";
import { readableTime } from "../../core/render/format.js";
import { escapeHtml, locationHtml } from "../../core/render/html.js";
import type { NotesVersion, StoredInvestigation } from "../../ports/investigation-store.js";

/** What the Investigation page shows: the stored rows, the notes versions (any order) and when the run ended. */
export interface InvestigationViewInput {
  investigation: StoredInvestigation;
  notes: readonly NotesVersion[];
  /** The run's end: the current status of each question counts up to it in the time per status. */
  finishedAt?: string;
}

/** The styles of the classes the sections use; relies on the page's `--fg`, `--muted`, `--bg`, `--card`, `--rule`, `--accent`. */
export const INVESTIGATION_CSS = `
.tree{list-style:none;margin:.5rem 0;padding-left:0}
.tree .tree{margin:.25rem 0 .25rem .45rem;padding-left:1rem;border-left:1px solid var(--rule)}
.tree li{margin:.35rem 0;overflow-wrap:anywhere}
.tree summary{cursor:pointer}
.tree summary:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.outcome{display:block;color:var(--muted);font-size:.9em}
.meta,.id{color:var(--muted);font-size:.85em}
.status{display:inline-block;padding:0 .4em;border:1px solid var(--rule);border-radius:.25em;background:var(--card);color:var(--fg);font-size:.8em;line-height:1.5;white-space:nowrap}
.status-in_progress{border-color:var(--accent);color:var(--accent)}
.status-pending,.status-pruned,.status-retracted,.status-inconclusive,.status-open{color:var(--muted)}
.status-resolved,.status-verified,.status-survived{border-color:color-mix(in srgb,#1a7f37 60%,var(--fg));color:color-mix(in srgb,#1a7f37 65%,var(--fg));background:color-mix(in srgb,#1a7f37 12%,var(--card))}
.status-blocked,.status-unresolvable,.status-unverified,.status-weakened{border-color:color-mix(in srgb,#b7791f 60%,var(--fg));color:color-mix(in srgb,#b7791f 65%,var(--fg));background:color-mix(in srgb,#b7791f 12%,var(--card))}
.status-refuted{border-color:color-mix(in srgb,#c62828 60%,var(--fg));color:color-mix(in srgb,#c62828 65%,var(--fg));background:color-mix(in srgb,#c62828 12%,var(--card))}
.table-scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.5rem 0 1rem}
.table-scroll table{border-collapse:collapse;width:100%;font-size:.9rem}
.table-scroll caption{text-align:left;color:var(--muted);font-size:.85rem;padding:.25rem 0}
.table-scroll th,.table-scroll td{padding:.35rem .5rem;border-bottom:1px solid var(--rule);text-align:left;vertical-align:top}
.table-scroll td{overflow-wrap:anywhere;min-width:6rem}
.table-scroll tfoot th,.table-scroll tfoot td{font-weight:600;border-top:2px solid var(--rule)}
.sources{margin:0;padding-left:1rem}
.warning{background:var(--card);border-left:4px solid #c62828;padding:.5rem .75rem}
pre.notes{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);border:1px solid var(--rule);border-radius:4px;padding:.75rem;font-size:.85rem}
`;

const text = (value: string): string => escapeHtml(value);

const badge = (status: string): string =>
  `<span class="status status-${text(status.toLowerCase())}">${text(status)}</span>`;

const idSpan = (id: string): string => `<span class="id">${text(id)}</span>`;

function section(id: string, title: string, body: string): string {
  return `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${title}</h2>${body}</section>`;
}

/** A scrollable table with a caption, column headers, body rows and an optional footer row. */
function table(caption: string, headers: readonly string[], rows: readonly string[], footer = ""): string {
  const head = headers.map((header) => `<th scope="col">${header}</th>`).join("");
  const foot = footer ? `<tfoot>${footer}</tfoot>` : "";
  return `<div class="table-scroll"><table><caption>${caption}</caption><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody>${foot}</table></div>`;
}

const row = (cells: readonly string[]): string => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`;

const empty = (message: string): string => `<p class="meta">${message}</p>`;

/** The cited sources by title with their location, an unknown id as the id; `—` when none. */
function sourceList(ids: readonly string[], sources: ReadonlyMap<string, LedgerSource>): string {
  if (ids.length === 0) return "—";
  const items = ids.map((id) => {
    const source = sources.get(id);
    if (!source) return `<li><code>${text(id)}</code></li>`;
    const where = locationHtml(source.location);
    return `<li>${text(source.title || source.id)} ${idSpan(source.id)}${where ? ` <br>${where}` : ""}</li>`;
  });
  return `<ul class="sources">${items.join("")}</ul>`;
}

/** A question's text shortened, with its id; an unknown id as the id alone. */
function questionRef(id: string | null, questions: ReadonlyMap<string, Question>): string {
  if (!id) return "—";
  const question = questions.get(id);
  return question ? `${text(shorten(question.question, 80))} ${idSpan(id)}` : idSpan(id);
}

function treeItem(node: FrontierNode): string {
  const { question } = node;
  const details = [`P ${p2(question.priority)}`, `depth ${question.depth}`];
  if (question.reopens > 0) details.push(`reopened ${question.reopens}×`);
  const line =
    `${badge(question.status)} ${text(question.question)} ` +
    `<span class="meta">${details.join(" · ")} · ${idSpan(question.id)}</span>` +
    (node.outcome ? `<span class="outcome">${text(node.outcome)}</span>` : "");
  const body = node.children.length ? `<details open><summary>${line}</summary>${tree(node.children)}</details>` : line;
  return `<li data-question="${text(question.id)}" data-status="${text(question.status)}">${body}</li>`;
}

function tree(nodes: readonly FrontierNode[], label = ""): string {
  const aria = label ? ` aria-label="${label}"` : "";
  return `<ul class="tree"${aria}>${nodes.map(treeItem).join("")}</ul>`;
}

/** `1.5s`, `42s`, `3m 05s`, `2h 07m`. */
function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.round(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.round(seconds % 60)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

function frontierSection(input: InvestigationViewInput): string {
  const { questions, transitions } = input.investigation;
  if (questions.length === 0) return section("frontier", "Frontier", empty("No question was recorded."));
  const stats = frontierStats(questions, transitions, input.finishedAt ? { until: input.finishedAt } : {});
  const counts = QUESTION_STATUSES.filter((status) => stats.byStatus[status] > 0)
    .map((status) => `${status} ${stats.byStatus[status]}`)
    .join(", ");
  const times = QUESTION_STATUSES.filter((status) => stats.timePerStatus[status] > 0)
    .map((status) => `${status} ${duration(stats.timePerStatus[status])}`)
    .join(", ");
  const summary =
    `<p>${stats.questions} question${stats.questions === 1 ? "" : "s"}: ${counts}</p>` +
    (times ? `<p class="meta">Time per status: ${times}</p>` : "");
  return section("frontier", "Frontier", summary + tree(frontierForest(questions, transitions), "Question tree"));
}

function transitionRow(transition: Transition, questions: ReadonlyMap<string, Question>): string {
  const time = transition.createdAt.slice(11, 19) || "--:--:--";
  const from = transition.fromStatus === "" ? "(new)" : badge(transition.fromStatus);
  const cause = transition.causedBy ? `caused by ${idSpan(transition.causedBy)}` : "";
  const reason = [text(transition.reason), cause].filter(Boolean).join(" ");
  return row([
    `<time datetime="${text(transition.createdAt)}">${text(time)}</time>`,
    questionRef(transition.questionId, questions),
    `${from} → ${badge(transition.toStatus)}`,
    text(transition.trigger),
    text(transition.actor),
    reason,
  ]);
}

function transitionsSection(investigation: StoredInvestigation, questions: ReadonlyMap<string, Question>): string {
  const { transitions } = investigation;
  const body = transitions.length
    ? table(
        `${transitions.length} status change${transitions.length === 1 ? "" : "s"}, in the order they were written`,
        ["Time", "Question", "From → To", "Trigger", "Actor", "Reason"],
        transitions.map((transition) => transitionRow(transition, questions)),
      )
    : empty("No transition was recorded.");
  return section("transitions", "Transitions", body);
}

function claimText(claim: Claim): string {
  const value =
    claim.kind === "datapoint" && claim.value
      ? ` <strong>= ${text(claim.value)}${claim.unit ? ` ${text(claim.unit)}` : ""}</strong>`
      : "";
  return `${text(claim.text)}${value} ${idSpan(claim.id)}`;
}

function ledgerSection(
  investigation: StoredInvestigation,
  questions: ReadonlyMap<string, Question>,
  sources: ReadonlyMap<string, LedgerSource>,
): string {
  const { claims, claimSources } = investigation;
  if (claims.length === 0) return section("ledger", "Claim ledger", empty("No claim was recorded."));
  const stance = (claim: Claim, wanted: "supports" | "contradicts"): string[] =>
    claimSources.filter((link) => link.claimId === claim.id && link.stance === wanted).map((link) => link.sourceId);
  const rows = claims.map((claim) =>
    row([
      badge(claim.status),
      claimText(claim),
      sourceList(stance(claim, "supports"), sources),
      sourceList(stance(claim, "contradicts"), sources),
      questionRef(claim.questionId, questions),
    ]),
  );
  return section(
    "ledger",
    "Claim ledger",
    table(
      `${claims.length} claim${claims.length === 1 ? "" : "s"}, in id order`,
      ["Status", "Claim", "Supporting sources", "Contradicting sources", "Question"],
      rows,
    ),
  );
}

const OUTCOME_COLUMNS = [...CHALLENGE_OUTCOMES, "open"] as const;

const countCells = (counts: OutcomeCounts): string[] => {
  const total = OUTCOME_COLUMNS.reduce((sum, outcome) => sum + counts[outcome], 0);
  return [...OUTCOME_COLUMNS.map((outcome) => String(counts[outcome])), String(total)];
};

const outcomeOf = (challenge: Challenge): string =>
  challenge.status === "open" || challenge.outcome === "" ? "open" : challenge.outcome;

/** The claim's or question's text when the target resolves, else `claim c_009` / `conclusion`. */
function challengeTarget(
  challenge: Challenge,
  claims: ReadonlyMap<string, Claim>,
  questions: ReadonlyMap<string, Question>,
): string {
  const claim = challenge.targetType === "claim" ? claims.get(challenge.targetId) : undefined;
  if (claim) return `${text(shorten(claim.text, 80))} ${idSpan(claim.id)}`;
  const question = challenge.targetType === "question_answer" ? questions.get(challenge.targetId) : undefined;
  if (question) return `${text(shorten(question.question, 80))} ${idSpan(question.id)}`;
  return text(challenge.targetId ? `${challenge.targetType} ${challenge.targetId}` : challenge.targetType);
}

function challengeRow(
  challenge: Challenge,
  lookups: {
    claims: ReadonlyMap<string, Claim>;
    questions: ReadonlyMap<string, Question>;
    sources: ReadonlyMap<string, LedgerSource>;
  },
): string {
  const parts = [
    ["Negation", challenge.negation],
    ["Query", challenge.query],
    ["Evidence", challenge.evidence],
  ].filter(([, value]) => value);
  const said = parts.map(([label, value]) => `<strong>${label}:</strong> ${text(value ?? "")}`).join("<br>");
  return row([
    challengeTarget(challenge, lookups.claims, lookups.questions),
    text(challenge.strategy),
    said || "—",
    `${badge(outcomeOf(challenge))} ${idSpan(challenge.id)}`,
    sourceList(challenge.sourceIds, lookups.sources),
  ]);
}

function challengesSection(
  investigation: StoredInvestigation,
  questions: ReadonlyMap<string, Question>,
  sources: ReadonlyMap<string, LedgerSource>,
): string {
  const { challenges, transitions } = investigation;
  if (challenges.length === 0) return section("challenges", "Challenges", empty("No challenge was recorded."));
  const stats = challengeStats(challenges, transitions);
  const header = ["Strategy", ...OUTCOME_COLUMNS, "total"];
  const rowHeader = (label: string, cells: readonly string[]): string =>
    `<tr><th scope="row">${label}</th>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`;
  const byStrategy = table(
    "Challenges by strategy and outcome",
    header,
    Object.entries(stats.byStrategy).map(([strategy, counts]) => rowHeader(text(strategy), countCells(counts))),
    rowHeader("Total", countCells(stats.byOutcome)),
  );
  const warning = stats.suspect ? `<p class="warning">Suspect: ${text(stats.suspectReason)}</p>` : "";
  const claims = new Map(investigation.claims.map((claim) => [claim.id, claim]));
  const list = table(
    `${stats.total} challenge${stats.total === 1 ? "" : "s"}`,
    ["Target", "Strategy", "Query and evidence", "Outcome", "Sources"],
    challenges.map((challenge) => challengeRow(challenge, { claims, questions, sources })),
  );
  return section("challenges", "Challenges", byStrategy + warning + list);
}

function notesSection(notes: readonly NotesVersion[]): string {
  if (notes.length === 0) return section("notes", "Notes versions", empty("No notes version was recorded."));
  const versions = [...notes].sort((a, b) => b.seq - a.seq);
  const items = versions.map(
    (version, index) =>
      `<details${index === 0 ? " open" : ""} data-seq="${version.seq}"><summary>Version ${version.seq} · ${text(version.reason)} · <time datetime="${text(version.createdAt)}">${text(readableTime(version.createdAt))}</time></summary><pre class="notes">${text(version.text)}</pre></details>`,
  );
  return section("notes", "Notes versions", items.join(""));
}

/**
 * The Investigation page body: the sections `frontier`, `transitions`, `ledger`,
 * `challenges` and `notes`, in that order, as one HTML fragment. Pure.
 */
export function investigationSections(input: InvestigationViewInput): string {
  const { investigation } = input;
  const questions = new Map(investigation.questions.map((question) => [question.id, question]));
  const sources = new Map(investigation.sources.map((source) => [source.id, source]));
  return [
    frontierSection(input),
    transitionsSection(investigation, questions),
    ledgerSection(investigation, questions, sources),
    challengesSection(investigation, questions, sources),
    notesSection(input.notes),
  ].join("\n");
}
