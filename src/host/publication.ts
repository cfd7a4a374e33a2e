/**
 * Publication: build the ReportDocument from persisted state, render both projections,
 * stage and validate them, switch the pair atomically, and record it as events.
 */

import { answerQuestion, type PartAnswer, sentencesRead, unansweredStatement } from "../core/answer/answer.js";
import { describeError } from "../core/errors.js";
import { checkedVerification } from "../core/judgment/cross-check.js";
import { dropTopics, mentions, revisionFocus } from "../core/lineage/instruction.js";
import { parentNumbers, reportLineage } from "../core/lineage/report-lineage.js";
import { folderScopeLabel } from "../core/render/format.js";
import { renderHtml } from "../core/render/html.js";
import { renderMarkdown } from "../core/render/markdown.js";
import { type BuildInput, buildReport, type CatalogSource } from "../core/report/build-report.js";
import { checkReportClosure, parseReportDocument, type ReportDocument } from "../core/report/report-document.js";
import { passageOf } from "../core/synthesis/packet.js";
import { acquisitionFacts } from "../core/timings.js";
import { mergeWorks } from "../core/works.js";
import type { ArtifactFiles, PublishedArtifacts } from "../ports/artifact-store.js";
import type { SearchQuery, WorkMetadata } from "../ports/search-provider.js";
import type { SearchCallRecord, SourceRecord } from "../ports/store.js";
import type { RunHost } from "./run-host.js";

/** Reader-safe rendering of a query. */
export function describeQuery(query: SearchQuery): string {
  if (query.kind === "text") return `“${query.text}”`;
  return query.pathPrefix ? `pattern /${query.pattern}/ in ${query.pathPrefix}` : `pattern /${query.pattern}/`;
}

/** Reader-safe description of the evidence scope. */
export function describeScope(host: RunHost): string {
  const scope = host.request.scope;
  if (host.scopeLabel) return host.scopeLabel;
  return scope.kind === "corpus" ? folderScopeLabel(scope.label) : scope.label;
}

/**
 * What the searches that led to `source` listed about it as a scholarly work (authors,
 * venue, year, DOI), the fullest of them; undefined when none did. Discovery metadata only.
 */
export function listedWork(source: SourceRecord, calls: readonly SearchCallRecord[]): WorkMetadata | undefined {
  let found: WorkMetadata | undefined;
  for (const item of source.provenance) {
    const call = calls.find((candidate) => candidate.id === item.queryId);
    const hit = call?.hits.find(
      (candidate) =>
        candidate.rank === item.rank &&
        (candidate.anchor === item.requestedAnchor || candidate.alternates?.includes(item.requestedAnchor) === true),
    );
    found = mergeWorks(found, hit?.work);
  }
  return found;
}

export function catalogSource(source: SourceRecord, calls: readonly SearchCallRecord[] = []): CatalogSource {
  const work = listedWork(source, calls);
  return {
    id: source.id,
    title: source.title,
    ...(work ? { listedAs: work } : {}),
    ...(source.path === undefined ? {} : { path: source.path }),
    ...(source.url === undefined ? {} : { url: source.url }),
    capturedAt: source.capturedAt,
    chunks: source.chunks,
  };
}

/** Best discovery position of a source: earliest query, then best rank. */
function discoveryKey(source: SourceRecord): [string, number] {
  let best: [string, number] = ["~", Number.POSITIVE_INFINITY];
  for (const item of source.provenance) {
    if (item.queryId < best[0] || (item.queryId === best[0] && item.rank < best[1])) best = [item.queryId, item.rank];
  }
  return best;
}

/** Orders sources as the searches ranked them, not as their reads happened to finish. */
function byDiscovery(a: SourceRecord, b: SourceRecord): number {
  const [queryA, rankA] = discoveryKey(a);
  const [queryB, rankB] = discoveryKey(b);
  return queryA.localeCompare(queryB) || rankA - rankB || a.id.localeCompare(b.id);
}

/** Builds the source-backed (or no-evidence) document from what the store holds now. */
export async function buildFromPersisted(
  host: RunHost,
  phase: "preliminary" | "final",
  synthesis?: BuildInput["synthesis"],
): Promise<ReportDocument> {
  const runId = host.run.id;
  const [persisted, calls, events] = await Promise.all([
    host.store.listSources(runId),
    host.store.listSearchCalls(runId),
    host.store.listEvents(runId),
  ]);
  // The report's catalog: a follow-up's carried-over sources once it reached them (RunHost.sources).
  const inCatalog = new Set(host.sources().map((source) => source.id));
  const sources = persisted.filter((source) => inCatalog.has(source.id) || source.reused !== "parent");
  const lineage = host.request.lineage;
  const parent = host.parent;
  // A revision leaves out the items on every topic it, or a revision before it, asked to drop.
  const drop = lineage?.relation === "revision" ? revisionFocus(parent?.revisions ?? [lineage.instruction]).drop : [];
  const trimmed = synthesis && drop.length > 0 ? dropTopics(synthesis.admitted, drop) : undefined;
  const admitted = trimmed?.admitted ?? synthesis?.admitted;
  const items = admitted ? admitted.facts.length + admitted.derivations.length + admitted.recommendations.length : 0;
  // A report of excerpts (no synthesis, or none of its items left) quotes no passage on a dropped topic.
  let passagesDropped = 0;
  const catalog = [...sources].sort(byDiscovery).map((source) => {
    const entry = catalogSource(source, calls);
    if (drop.length === 0 || items > 0) return entry;
    const chunks = entry.chunks.filter((chunk) => !drop.some((topic) => mentions(chunk.text, topic)));
    passagesDropped += entry.chunks.length - chunks.length;
    return { ...entry, chunks };
  });
  // Every finding is checked against everything read: what another source contradicts is contested.
  const published = synthesis ? { ...synthesis, ...(trimmed ? { admitted: trimmed.admitted } : {}) } : undefined;
  const checked = published
    ? {
        ...published,
        verification: checkedVerification(
          published.admitted.facts,
          published.verification ?? new Map(),
          sources.map((source) => ({ id: source.id, title: source.title, chunks: source.chunks })),
          host.judge,
        ),
      }
    : undefined;
  // How the published facts answer each part of the question, decided against every sentence read.
  const titleOf = new Map(sources.map((source) => [source.id, source.title]));
  const locationOf = new Map(
    sources.flatMap((source) =>
      source.chunks.flatMap((chunk) => (chunk.location ? [[chunk.id, chunk.location] as const] : [])),
    ),
  );
  const answer = checked
    ? {
        parts: answerQuestion(
          host.request.question,
          checked.admitted.facts.map((fact) => ({
            key: fact.id,
            text: fact.text,
            sourceId: fact.sourceId,
            title: titleOf.get(fact.sourceId) ?? "",
            ...(fact.chunkIds[0] ? { passage: fact.chunkIds[0] } : {}),
            // What the fact stands under: its source's title and its passage's place, as for every sentence read.
            about: [titleOf.get(fact.sourceId), ...fact.chunkIds.map((id) => locationOf.get(id))]
              .filter((part): part is string => part !== undefined)
              .join(" "),
          })),
          sentencesRead(sources.map((source) => ({ ...source, chunks: source.chunks.map(passageOf) }))),
          { judge: host.judge, strict: true },
        ),
        statementOf: (part: PartAnswer) =>
          unansweredStatement({ asked: part.part.asked, status: part.status }, host.phrasing),
      }
    : undefined;
  const doc = buildReport({
    ...(checked ? { synthesis: checked } : {}),
    ...(answer ? { answer } : {}),
    ...(lineage ? { sourceNumbers: parentNumbers(parent?.report) } : {}),
    question: host.request.question,
    language: host.request.language,
    scope: describeScope(host),
    sources: catalog,
    attemptedQueries: calls.map((call) => describeQuery(call.query)),
    acquisition: acquisitionFacts(events),
    phase,
    generatedAt: host.clock.wallIso(),
    excerptCharsPerSource: host.request.budgets.excerptCharsPerSource,
    excerptCharsTotal: host.request.budgets.excerptCharsTotal,
  });
  if (!lineage) return doc;
  return {
    ...doc,
    lineage: reportLineage(doc, {
      relation: lineage.relation,
      parentRun: lineage.parentId,
      parentQuestion: parent?.run.request.question ?? `run ${lineage.parentId}`,
      parentReport: parent?.report,
      instruction: lineage.instruction,
      version: parent?.version ?? 2,
      droppedByInstruction: items > 0 ? (trimmed?.dropped ?? 0) : passagesDropped,
      carried: new Set(persisted.filter((source) => source.reused === "parent").map((source) => source.id)),
    }),
  };
}

/** Checks a staged pair: the JSON parses as a ReportDocument and both projections carry its title. */
export function validateStaged(staged: ArtifactFiles): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(staged.json);
  } catch (error) {
    return `report.json is not JSON: ${describeError(error)}`;
  }
  const parsed = parseReportDocument(value);
  if (!parsed.ok) return `report.json does not match the ReportDocument schema: ${parsed.error}`;
  const closed = checkReportClosure(parsed.value);
  if (!closed.ok) return closed.error;
  if (!staged.markdown.startsWith("# ")) return "report.md does not start with its title";
  if (!staged.html.startsWith("<!DOCTYPE html>") || !staged.html.trimEnd().endsWith("</html>")) {
    return "report.html is not a complete page";
  }
  return undefined;
}

export type PublicationKind = "preliminary" | "final";

/**
 * Renders and atomically publishes `doc`. A failure is recorded and returned, never thrown:
 * the previously published pair stays in place.
 */
export async function publish(
  host: RunHost,
  doc: ReportDocument,
  kind: PublicationKind,
): Promise<PublishedArtifacts | undefined> {
  // A run handed back (its lease lost, or found lost right now) publishes nothing: the lease's holder publishes.
  if (!(await host.holdsLease())) return undefined;
  const files: ArtifactFiles = {
    json: `${JSON.stringify(doc, null, 2)}\n`,
    markdown: renderMarkdown(doc),
    html: renderHtml(doc),
  };
  try {
    const published = await host.artifacts.publish(
      { runId: host.run.id, outDir: host.request.outDir },
      files,
      validateStaged,
    );
    await host.store.updateRun(host.run.id, { artifactStatus: doc.status });
    await host.emit(`${kind}-published`, {
      status: doc.status,
      version: published.version,
      sources: doc.sources.length,
      paths: published.paths,
    });
    return published;
  } catch (error) {
    await host.diagnose("publish", "publication-failed", describeError(error), { kind });
    await host.emit("publication-failed", { kind });
    return undefined;
  }
}
