/**
 * The web UI's pages (pure): sign-in, the runs list, the new-research form, the live run page,
 * the report view, a source's stored text and the investigation view. Every text from a run, a source or a model is
 * escaped; the pages hold no script of their own (app.js, served by the server, follows runs live).
 */

import { readableTime } from "../../core/render/format.js";
import { escapeHtml as e, locationHtml, reportBody } from "../../core/render/html.js";
import type { ReportDocument, SourceEntry } from "../../core/report/report-document.js";
import { describeCost, formatUsd, runCost } from "../../core/usage.js";
import { STRATEGY_NAMES } from "../../ports/store.js";
import type { RunView, UsageView } from "../http/schemas.js";
import { WEB_PROVIDERS } from "../http/schemas.js";
import type { ReportComparison } from "../lineage.js";
import { elapsedText, type LiveState } from "../live-state.js";
import { page } from "./layout.js";
import { quotedSpans, type StoredPassage, sourceViewBody } from "./source-view.js";

const STATUS_TEXT: Record<RunView["status"], string> = {
  queued: "queued",
  running: "running",
  interrupted: "interrupted",
  finished: "finished",
  failed: "failed",
};

const statusBadge = (status: RunView["status"]): string =>
  `<span class="badge status-${status}">${STATUS_TEXT[status]}</span>`;

const when = (iso: string): string => (iso === "" ? "" : `<time datetime="${e(iso)}">${e(readableTime(iso))}</time>`);

export function loginPage(options: { next: string; error?: string; token?: string }): string {
  const error = options.error ? `<p class="error-summary" role="alert" id="token-error">${e(options.error)}</p>` : "";
  return page({
    title: "Sign in",
    body: `<h1>Sign in</h1>
${error}
<form method="post" action="/login" class="stack">
<input type="hidden" name="next" value="${e(options.next)}">
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required spellcheck="false"${options.error ? ' aria-invalid="true" aria-describedby="token-error"' : ""} autofocus>
<p class="hint">Ask whoever runs this server for a token (<code>assay tokens create --user NAME</code>). The sign-in ends when you sign out, when the token is revoked, or after some hours (sooner without use).</p>
<button type="submit">Sign in</button>
</form>`,
  });
}

/** The runs table (also served alone, as the fragment the runs page refreshes while a run goes on). */
export function runsTable(runs: readonly RunView[]): string {
  const active = runs.some((run) => run.status === "running" || run.status === "queued");
  const refresh = active ? ' data-fragment="/runs/fragment" data-every="3000"' : "";
  if (runs.length === 0)
    return `<div id="runs"${refresh}><p class="empty">No research yet. <a href="/runs/new">Start one</a>.</p></div>`;
  const rows = runs.map(
    (run) =>
      `<tr><td class="num">${run.id}</td><td class="question"><a href="/runs/${run.id}">${e(run.question)}</a>${run.lineage ? ` <span class="hint">(${run.lineage.relation === "follow-up" ? "follow-up" : "revision"} of ${run.lineage.parentId})</span>` : ""}</td><td>${statusBadge(run.status)}</td><td>${e(run.strategy)}</td><td>${e(run.scope.kind === "web" ? "the web" : run.scope.label)}</td><td>${when(run.createdAt)}</td><td>${run.artifactStatus ? `<a href="/runs/${run.id}/report">Report</a>` : ""}</td></tr>`,
  );
  return `<div id="runs"${refresh}><div class="table-scroll"><table>
<caption class="visually-hidden">Your research runs, newest first</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Question</th><th scope="col">Status</th><th scope="col">Strategy</th><th scope="col">Scope</th><th scope="col">Started</th><th scope="col">Report</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table></div></div>`;
}

/** The user's model spend, today against the day's limit and in all (the cost record of `GET /api/usage`). */
export function usageLine(usage: UsageView): string {
  const { today, total, limits } = usage;
  const dayLimit = limits.costUsdPerDay === undefined ? "" : ` of ${formatUsd(limits.costUsdPerDay)} a day`;
  const runLimit = limits.costUsdPerRun === undefined ? "" : ` · at most ${formatUsd(limits.costUsdPerRun)} a run`;
  const calls = (count: number) => `${count} model call${count === 1 ? "" : "s"}`;
  return `<p class="meta" id="usage">Model spend today (UTC): ${e(describeCost(today))}${dayLimit}${runLimit} · in all: ${e(describeCost(total))} over ${calls(total.generations)}</p>`;
}

export function runsPage(user: string, runs: readonly RunView[], usage: UsageView): string {
  return page({
    title: "Runs",
    user,
    current: "runs",
    body: `<div class="title-row"><h1>Runs</h1><a class="button" href="/runs/new">New research</a></div>\n${usageLine(usage)}\n${runsTable(runs)}`,
  });
}

/** The new-research form's fields, as typed (strings), so that a refused form comes back as it was. */
export interface NewRunForm {
  question: string;
  scope: "corpus" | "web" | "hybrid" | "library";
  corpus: string;
  provider: string;
  strategy: string;
  model: string;
  language: string;
  maxSources: string;
  maxSearchCalls: string;
  wallClockSeconds: string;
}

export const EMPTY_FORM: NewRunForm = {
  question: "",
  scope: "corpus",
  corpus: "",
  provider: "",
  strategy: "pipeline",
  model: "",
  language: "en",
  maxSources: "",
  maxSearchCalls: "",
  wallClockSeconds: "",
};

const STRATEGY_HELP: Record<(typeof STRATEGY_NAMES)[number], string> = {
  pipeline: "Plan searches, read, then write (the default).",
  simple: "One search-and-read loop; the quickest.",
  investigative: "Break the question down, challenge its claims, keep a frontier and a ledger.",
};

export interface NewRunChoices {
  /** Folders a corpus run may read: the value sent and the label shown. */
  corpora: readonly { value: string; label: string }[];
  defaultModel: string;
  /** The model specs the operator offers (`assay serve --model`, `--allow-model`). */
  models: readonly string[];
  defaults: { maxSources: number; maxSearchCalls: number; wallClockSeconds: number };
}

export function newRunPage(
  user: string,
  form: NewRunForm,
  choices: NewRunChoices,
  error?: { message: string; field: string },
): string {
  const fieldId = (field: string): string => {
    if (field.startsWith("question")) return "question";
    if (field.startsWith("scope")) return form.scope === "web" ? "provider" : "corpus";
    if (field === "model") return "model";
    if (field === "language") return "language";
    if (field.includes("maxSources")) return "maxSources";
    if (field.includes("maxSearchCalls")) return "maxSearchCalls";
    if (field.includes("wallClockMs")) return "wallClockSeconds";
    return "question";
  };
  const invalid = error ? fieldId(error.field) : "";
  const aria = (id: string) => (id === invalid ? ' aria-invalid="true" aria-describedby="form-error"' : "");
  const checked = (yes: boolean) => (yes ? " checked" : "");
  const corpusOptions = choices.corpora
    .map(
      (corpus) =>
        `<option value="${e(corpus.value)}"${corpus.value === form.corpus ? " selected" : ""}>${e(corpus.label)}</option>`,
    )
    .join("");
  const providers = WEB_PROVIDERS.map(
    (provider) => `<option value="${provider}"${provider === form.provider ? " selected" : ""}>${provider}</option>`,
  ).join("");
  const strategies = STRATEGY_NAMES.map(
    (name) =>
      `<label class="choice"><input type="radio" name="strategy" value="${name}"${checked(form.strategy === name)}> <strong>${name}</strong> <span class="hint">${STRATEGY_HELP[name]}</span></label>`,
  ).join("\n");
  const number = (id: keyof NewRunForm, label: string, placeholder: number, max: number) =>
    `<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${id}" type="number" inputmode="numeric" min="1" max="${max}" step="1" placeholder="${placeholder}" value="${e(form[id])}"${aria(id)}></div>`;
  const errorBox = error
    ? `<div class="error-summary" role="alert" id="form-error"><p><strong>The research was not started.</strong> ${e(error.message)}</p><p><a href="#${invalid}">Go to the field</a></p></div>`
    : "";
  const noCorpus =
    choices.corpora.length === 0
      ? '<p class="hint">This server reads no folders (it was started without <code>--corpus-root</code>).</p>'
      : "";
  return page({
    title: "New research",
    user,
    current: "new",
    body: `<h1>New research</h1>
${errorBox}
<form method="post" action="/runs" class="stack" novalidate>
<div class="field"><label for="question">Question</label>
<textarea id="question" name="question" rows="3" maxlength="4000" required${aria("question")}>${e(form.question)}</textarea></div>
<fieldset><legend>Where to look</legend>
<label class="choice"><input type="radio" name="scope" value="corpus"${checked(form.scope === "corpus")}${choices.corpora.length === 0 ? " disabled" : ""}> A folder on this server</label>
<div class="field indent"><label for="corpus">Folder</label><select id="corpus" name="corpus"${aria("corpus")}>${corpusOptions}</select>${noCorpus}</div>
<label class="choice"><input type="radio" name="scope" value="web"${checked(form.scope === "web")}> The web</label>
<label class="choice"><input type="radio" name="scope" value="hybrid"${checked(form.scope === "hybrid")}${choices.corpora.length === 0 ? " disabled" : ""}> The folder and the web, in one report</label>
<label class="choice"><input type="radio" name="scope" value="library"${checked(form.scope === "library")}> Your library: the sources your earlier runs read (nothing is fetched)</label>
<div class="field indent"><label for="provider">Search provider</label><select id="provider" name="provider"${aria("provider")}><option value="">the server's default</option>${providers}</select></div>
</fieldset>
<fieldset><legend>Strategy</legend>
${strategies}
</fieldset>
<details${invalid !== "" && invalid !== "question" && invalid !== "corpus" && invalid !== "provider" ? " open" : ""}><summary>Model and budgets</summary>
<div class="field"><label for="model">Model</label><input id="model" name="model" type="text" spellcheck="false" placeholder="${e(choices.defaultModel)}" value="${e(form.model)}"${aria("model")}>
<p class="hint">This server offers ${choices.models.map((model) => `<code>${e(model)}</code>`).join(", ")}. Empty: the server's default, ${e(choices.defaultModel)}.</p></div>
<div class="field"><label for="language">Report language</label><input id="language" name="language" type="text" spellcheck="false" value="${e(form.language)}"${aria("language")}></div>
<div class="row">
${number("maxSources", "Most sources", choices.defaults.maxSources, 500)}
${number("maxSearchCalls", "Most searches", choices.defaults.maxSearchCalls, 500)}
${number("wallClockSeconds", "Time limit (seconds)", choices.defaults.wallClockSeconds, 21600)}
</div>
</details>
<button type="submit">Start research</button>
</form>`,
  });
}

/** The tabs of a run's pages. */
type RunTab = "live" | "report" | "investigation" | "changes";

function runTabs(run: RunView, current: RunTab): string {
  const tab = (key: RunTab, href: string, label: string) =>
    `<a class="tab" href="${href}"${key === current ? ' aria-current="page"' : ""}>${label}</a>`;
  return `<nav class="tabs" aria-label="This run">${tab("live", `/runs/${run.id}`, "Progress")}${run.artifactStatus ? tab("report", `/runs/${run.id}/report`, "Report") : ""}${run.lineage && run.artifactStatus ? tab("changes", `/runs/${run.id}/changes`, "Changes") : ""}${run.strategy === "investigative" ? tab("investigation", `/runs/${run.id}/investigation`, "Investigation") : ""}</nav>`;
}

/** "A follow-up of run 3" / "A revision of run 3's report: “…”", linked; '' for a new research. */
function lineageLine(run: RunView): string {
  const lineage = run.lineage;
  if (!lineage) return "";
  const parent = `<a href="/runs/${lineage.parentId}/report">run ${lineage.parentId}</a>`;
  return `<p class="meta lineage">${
    lineage.relation === "follow-up"
      ? `A follow-up of ${parent}`
      : `A revision of ${parent}'s report: “${e(lineage.instruction)}”`
  }</p>`;
}

function runHeader(run: RunView, current: RunTab): string {
  const scope =
    run.scope.kind === "corpus"
      ? `folder ${run.scope.label}`
      : run.scope.kind === "hybrid" || run.scope.kind === "library"
        ? run.scope.label
        : "the web";
  return `<p class="crumbs"><a href="/">Runs</a> › Run ${run.id}</p>
<h1>${e(run.question)}</h1>
<p class="meta">${statusBadge(run.status)} ${e(run.strategy)} · ${e(scope)} · model ${e(run.model)} · started ${when(run.createdAt)}</p>
${lineageLine(run)}${runTabs(run, current)}`;
}

/** The live part of the run page (also served alone: app.js replaces it as events arrive). */
export function livePanel(run: RunView, live: LiveState): string {
  const going = run.status === "running" || run.status === "queued";
  const follow = going
    ? ` data-fragment="/runs/${run.id}/live" data-events="/api/runs/${run.id}/events" data-last-seq="${live.lastSeq}"`
    : "";
  const stages =
    live.stages.length === 0
      ? `<p class="hint">${run.status === "queued" ? "Waiting for a worker to start it." : "No stage yet."}</p>`
      : `<ol class="stages">${live.stages
          .map((stage, index) => {
            const now = going && index === live.stages.length - 1;
            return `<li${now ? ' aria-current="step" class="current"' : ' class="done"'}>${e(stage)}${now && live.researchState ? ` <span class="hint">(${e(live.researchState)})</span>` : ""}</li>`;
          })
          .join("")}</ol>`;
  const budgets = live.budgets
    .map(
      (budget) =>
        `<div class="budget"><span class="label">${budget.label}</span> <meter min="0" max="${budget.limit}" value="${Math.min(budget.used, budget.limit)}" aria-label="${budget.label}: ${budget.used} of ${budget.limit}"></meter> <span class="value">${budget.used} / ${budget.limit}</span></div>`,
    )
    .join("");
  const cost = runCost(live.usage);
  const usage =
    live.usage.inputTokens + live.usage.outputTokens > 0
      ? `<p class="meta">Model tokens: ${live.usage.inputTokens} in, ${live.usage.outputTokens} out${cost === undefined ? "" : ` · cost ${e(cost)}`}</p>`
      : "";
  const sources =
    live.sources.length === 0
      ? '<p class="hint">No source read yet.</p>'
      : `<ol class="sources">${live.sources.map((source) => `<li><span class="title">${e(source.title || source.anchor)}</span><br><span class="where">${locationHtml(source.anchor)}</span></li>`).join("")}</ol>`;
  const activity = live.activity
    .map((line) => `<li><span class="at">${elapsedText(line.offsetMs)}</span> ${e(line.text)}</li>`)
    .join("");
  let outcome = "";
  if (live.report) {
    const label = live.report.kind === "final" ? "The report is published" : "A preliminary report is published";
    outcome = `<p class="notice" id="report-ready">${label} (${e(live.report.status)}). <a href="/runs/${run.id}/report">Read the report</a></p>`;
  }
  if (run.status === "failed" && run.error) outcome += `<p class="error-summary">The run failed: ${e(run.error)}</p>`;
  const actions: string[] = [];
  if (going)
    actions.push(
      `<form method="post" action="/runs/${run.id}/cancel"><button type="submit" class="secondary">Stop and publish what was read</button></form>`,
    );
  if (run.status === "interrupted")
    actions.push(
      `<form method="post" action="/runs/${run.id}/resume"><button type="submit">Resume</button></form><p class="hint">The process driving this run stopped; resuming continues from what was persisted.</p>`,
    );
  return `<section id="live" aria-labelledby="live-title"${follow}>
<h2 id="live-title" class="visually-hidden">Progress</h2>
<p class="status-line" data-status="${run.status}">${statusBadge(run.status)} <span>Elapsed <span class="elapsed"${going ? ` data-since="${e(run.createdAt)}"` : ""}>${elapsedText(live.elapsedMs)}</span></span>${run.cancelRequestedAt ? ' <span class="hint">stop requested</span>' : ""}</p>
${outcome}
<div class="columns">
<div><h3>Stages</h3>${stages}<h3>Budget use</h3><div class="budgets">${budgets}</div>${usage}${actions.join("")}</div>
<div><h3>Sources <span class="count">${live.sources.length}</span></h3>${sources}</div>
</div>
<h3>Activity</h3><ol class="activity">${activity}</ol>
</section>`;
}

export function runPage(user: string, run: RunView, live: LiveState): string {
  return page({ title: run.question, user, body: `${runHeader(run, "live")}\n${livePanel(run, live)}` });
}

/** The forms under a finished report: ask a follow-up, revise the report (each starts a new run). */
function continueForms(run: RunView, error?: { form: "follow-up" | "revision"; message: string }): string {
  if (run.status === "running" || run.status === "queued" || run.status === "interrupted") return "";
  const problem = (form: "follow-up" | "revision") =>
    error?.form === form ? `<p class="error-summary" role="alert" id="${form}-error">${e(error.message)}</p>` : "";
  const field = (form: "follow-up" | "revision", name: string, label: string, hint: string) =>
    `<form method="post" action="/runs/${run.id}/${form === "follow-up" ? "follow-ups" : "revisions"}" class="continue">
<label for="${form}">${label}</label>
<p class="hint" id="${form}-hint">${hint}</p>${problem(form)}
<input id="${form}" name="${name}" type="text" maxlength="4000" required aria-describedby="${form}-hint${error?.form === form ? ` ${form}-error` : ""}"${error?.form === form ? ' aria-invalid="true"' : ""}>
<button type="submit">${form === "follow-up" ? "Ask" : "Revise"}</button>
</form>`;
  return `<section id="continue" aria-labelledby="continue-title"><h2 id="continue-title">Continue this research</h2>
${field("follow-up", "question", "Ask a follow-up", "A new run that starts with this run's sources (not read again) and says what it adds to this report.")}
${field("revision", "instruction", "Revise this report", "For example “add the 2024 figures” or “drop the part on recycling”: a new version of the report, and its changes.")}
</section>`;
}

export function reportPage(
  user: string,
  run: RunView,
  doc: ReportDocument,
  version: string,
  error?: { form: "follow-up" | "revision"; message: string },
): string {
  const downloads = `<p class="downloads">Download: <a href="${run.links.reportMarkdown}" download>Markdown</a> · <a href="${run.links.reportJson}" download>JSON</a> · <a href="${run.links.reportPdf}" download>PDF</a> · <a href="${run.links.reportDocx}" download>Word</a> · <a href="${run.links.reportHtml}">standalone HTML</a> <span class="hint">(version ${e(version)})</span></p>`;
  return page({
    title: doc.title,
    user,
    body: `${runHeader(run, "report")}\n${downloads}\n<article class="report" lang="${e(doc.language)}">${reportBody(doc, { sourceView: (number, passage) => sourceViewHref(run.id, number, passage) })}</article>\n${continueForms(run, error)}`,
  });
}

/** What changed from the report this run continues: the structural diff, item by item. */
export function changesPage(user: string, run: RunView, comparison: ReportComparison): string {
  const name = (side: ReportComparison["from"]) =>
    side.version === undefined
      ? `<a href="/runs/${side.run}/report">run ${side.run}</a>`
      : `version ${side.version} (<a href="/runs/${side.run}/report">run ${side.run}</a>)`;
  const { diff } = comparison;
  const list = (id: string, title: string, items: string[]) =>
    items.length === 0
      ? ""
      : `<section id="${id}"><h2>${title} <span class="count">${items.length}</span></h2><ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul></section>`;
  const item = (value: { number: number; text: string }) =>
    `<span class="num">${value.number}.</span> ${e(value.text)}`;
  const body = [
    `<p class="lead">From ${name(comparison.from)} to ${name(comparison.to)}.</p>`,
    list("added", "Findings added", diff.findings.added.map(item)),
    list("removed", "Findings removed", diff.findings.removed.map(item)),
    list(
      "changed",
      "Findings changed",
      diff.findings.changed.map(
        (change) =>
          `${item(change.to)} <span class="hint">(was ${change.from.number}: ${e(change.changes.join(", "))}${change.changes.includes("wording") ? `; before: “${e(change.from.text)}”` : ""})</span>`,
      ),
    ),
    list("recommendations-added", "Recommendations added", diff.recommendations.added.map(item)),
    list("recommendations-removed", "Recommendations removed", diff.recommendations.removed.map(item)),
    list(
      "gaps-added",
      "Gaps added",
      diff.gaps.added.map((text) => e(text)),
    ),
    list(
      "gaps-removed",
      "Gaps removed",
      diff.gaps.removed.map((text) => e(text)),
    ),
    list(
      "sources-added",
      "Sources cited newly",
      diff.sources.added.map((source) => `[${source.number}] ${e(source.title)} — ${locationHtml(source.location)}`),
    ),
    list(
      "sources-removed",
      "Sources no longer cited",
      diff.sources.removed.map((source) => `[${source.number}] ${e(source.title)} — ${locationHtml(source.location)}`),
    ),
    `<p class="hint">${diff.findings.unchanged.length} finding${diff.findings.unchanged.length === 1 ? "" : "s"} unchanged.</p>`,
  ];
  return page({ title: `Changes: ${run.question}`, user, body: `${runHeader(run, "changes")}\n${body.join("\n")}` });
}

/** The web UI's address of a source's stored text, at a passage when given. */
export const sourceViewHref = (runId: number, number: number, passage?: number): string =>
  `/runs/${runId}/sources/${number}${passage === undefined ? "" : `#passage-${passage}`}`;

/** One source of a run's report as Assay stored it, the words the report quotes highlighted. */
export function sourcePage(
  user: string,
  run: RunView,
  doc: ReportDocument,
  entry: SourceEntry,
  passages: readonly StoredPassage[],
): string {
  return page({
    title: `[${entry.number}] ${entry.title}`,
    user,
    body: `${runHeader(run, "report")}\n<article class="source-view" lang="${e(doc.language)}">${sourceViewBody(entry, passages, quotedSpans(doc, entry.id), `/runs/${run.id}/report`)}</article>`,
  });
}

export function investigationPage(user: string, run: RunView, sections: string): string {
  const toc = `<nav class="toc" aria-label="Investigation"><a href="#frontier">Frontier</a><a href="#transitions">Transitions</a><a href="#ledger">Claim ledger</a><a href="#challenges">Challenges</a><a href="#notes">Notes versions</a></nav>`;
  return page({
    title: `Investigation: ${run.question}`,
    user,
    body: `${runHeader(run, "investigation")}\n${toc}\n${sections}`,
  });
}

export function messagePage(options: { title: string; message: string; user?: string; back?: string }): string {
  return page({
    title: options.title,
    ...(options.user === undefined ? {} : { user: options.user }),
    body: `<h1>${e(options.title)}</h1><p>${e(options.message)}</p><p><a href="${e(options.back ?? "/")}">Back</a></p>`,
  });
}
