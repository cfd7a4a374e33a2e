/** One short human line per run event worth showing (CLI progress, MCP progress, live pages); undefined otherwise. */
import type { RunEvent } from "../ports/store.js";

/** "3 files of unsupported types (2 .zip, 1 .exe); a.docx: password-protected": what an index left out, or "". */
export function notRead(data: Record<string, unknown>): string {
  const parts: string[] = [];
  const unsupported = Object.entries((data.unsupported ?? {}) as Record<string, number>);
  const files = unsupported.reduce((sum, [, count]) => sum + count, 0);
  if (files > 0)
    parts.push(
      `${files} ${files === 1 ? "file" : "files"} of unsupported types (${unsupported.map(([type, count]) => `${count} ${type || "without extension"}`).join(", ")})`,
    );
  const unreadable = (data.unreadable ?? []) as { path: string; reason: string }[];
  for (const file of unreadable) parts.push(`${file.path}: ${file.reason}`);
  const failed = Number(data.failed ?? 0);
  if (failed > unreadable.length) parts.push(`${failed - unreadable.length} more unreadable`);
  return parts.join("; ");
}

export function describeEvent(event: RunEvent): string | undefined {
  const data = event.data;
  switch (event.type) {
    case "run-started":
      return `run started: ${String(data.question)}`;
    case "run-resumed":
      return `run resumed with ${String(data.read ?? data.sources)} persisted sources`;
    case "stage-changed":
      return `stage: ${String(data.stage)}`;
    case "scope-prepared":
      return `search provider ready: ${String(data.provider)}`;
    case "corpus-indexed":
      return `corpus indexed: ${String(data.documents)} documents (${String(data.added)} added, ${String(data.updated)} updated, ${String(data.unchanged)} unchanged)${notRead(data) ? `; not read: ${notRead(data)}` : ""}`;
    case "search-finished":
      return `search finished: ${String(data.hits)} hits`;
    case "search-failed":
      return "search failed (see diagnostics)";
    case "source-persisted":
      return `source persisted: ${String(data.anchor)}`;
    case "sources-carried":
      return `${String(data.sources)} sources of run ${String(data.from)} carried over (not fetched again)`;
    case "source-reused":
      return `source reused from run ${String(data.from)}: ${String(data.anchor)}`;
    case "source-recalled":
      return `read from the library: ${String(data.anchor)} (captured ${String(data.capturedAt)})`;
    case "fetch-failed":
      return `could not read: ${String(data.anchor)}`;
    case "generation-finished":
      return `${String(data.purpose)} finished (${String(data.model)})`;
    case "generation-failed":
      return `${String(data.purpose)} failed: ${String(data.kind)} (the run goes on without it)`;
    case "synthesis-admitted":
      return `synthesis: ${String(data.facts)} facts, ${String(data.derivations)} derivations, ${String(data.recommendations)} recommendations admitted; ${String(data.dropped)} dropped`;
    case "answer-admitted":
      return `answer: ${String(data.statements)} statements and ${String(data.gaps)} gaps admitted; ${String(data.dropped)} dropped`;
    case "budget-exhausted":
      return `stopped at the ${String(data.limit)}`;
    case "deadline-reached":
      return "time limit reached: publishing from persisted sources";
    case "run-cancelled":
      return "cancelled: publishing from persisted sources";
    case "preliminary-published":
      return `preliminary report published (${String(data.sources)} sources)`;
    case "final-published":
      return `report published: ${String(data.status)}`;
    case "publication-failed":
      return "publication failed (see diagnostics)";
    case "run-finished":
      return `run finished: ${String(data.status)}`;
    default:
      return undefined;
  }
}
