/** `assay search`: query a corpus the way a run does, to check what a research will find. */

import { resolveCorpusRoot } from "../../adapters/corpus/corpus-paths.js";
import { corpusScopeOpener } from "../../adapters/corpus/corpus-scope.js";
import { UserError } from "../../core/errors.js";
import type { SearchQuery } from "../../ports/search-provider.js";
import { notRead } from "../event-lines.js";
import type { DataPaths } from "./paths.js";

export interface SearchCommandOptions {
  corpus: string;
  pattern?: string;
  under?: string;
  limit: number;
  json?: boolean;
}

export async function searchCorpus(
  paths: DataPaths,
  terms: string | undefined,
  options: SearchCommandOptions,
  out: NodeJS.WritableStream,
): Promise<void> {
  let query: SearchQuery;
  if (options.pattern !== undefined) {
    if (terms) throw new UserError("give either search terms or --pattern, not both");
    query = { kind: "pattern", pattern: options.pattern, ...(options.under ? { pathPrefix: options.under } : {}) };
  } else {
    if (!terms?.trim()) throw new UserError("give search terms, or a --pattern");
    if (options.under) throw new UserError("--under applies to --pattern searches only");
    query = { kind: "text", text: terms };
  }
  const root = await resolveCorpusRoot(options.corpus);
  const scope = await corpusScopeOpener({ indexDir: paths.indexDir }).open({
    kind: "corpus",
    root,
    label: options.corpus,
  });
  try {
    const indexed = await scope.prepare();
    const hits = await scope.search.search(query, { limit: options.limit });
    if (options.json) {
      out.write(`${JSON.stringify({ index: indexed, hits })}\n`);
      return;
    }
    const skipped = notRead(indexed);
    if (skipped) out.write(`Not read: ${skipped}.\n`);
    if (hits.length === 0) {
      out.write(`No document matched (${String(indexed.documents)} documents indexed).\n`);
      return;
    }
    for (const hit of hits) {
      out.write(
        `${String(hit.rank).padStart(3)}. ${hit.anchor}  (${hit.score.toFixed(2)})\n     ${hit.title}\n     ${hit.snippet}\n`,
      );
    }
  } finally {
    await scope.close();
  }
}
